/**
 * The schedule phrases of Wrench's languages other than English (German, French, Spanish, Portuguese, Japanese,
 * Chinese): each language's words for a period and a time of day at the start of a message, and how they read into
 * the English rules' own period words ("jeden Montag und Donnerstag" → "every mon and thu"), so one place makes the
 * cron pattern. Only the common phrases; what is not here is left to the model reader.
 */

/** A phrase found at the start of a message, in words the English rules understand. */
export interface ForeignPhrase {
  language: string;
  /** The period in the English rules' words ("every mon and thu", "every 2 hours", "every month on the 1"). */
  period: string;
  /** The time of day as written ("um 9 Uhr"), when one was given. */
  time?: string;
  /** The time of day as "H:MM" (24 h), or undefined when it was given but cannot be read. */
  clock?: string;
  /** The words that said when, as written. */
  when: string;
  rest: string;
}

interface PhraseLanguage {
  language: string;
  pattern: RegExp;
  /** The matched period's English rules' words, or undefined when it is none the language's tables know. */
  period: (period: string) => string | undefined;
  /** The matched time as "H:MM" (24 h), or undefined when it is no time of day. */
  clock: (time: string) => string | undefined;
}

const MENTION = String.raw`^\s*(?:<@\w+>\s*|@wrench\b\s*)?`;
/** A comma (or colon, dash...) or a space between when and what; Japanese may say に instead. */
const SEPARATOR = String.raw`\s*(?:[,:;.\-–—，、：；。]\s*|\s+)`;
const NI = String.raw`|\s*に\s*[、，,]?\s*`;
const list = (day: string, joiner: string) => String.raw`${day}(?:\s*(?:${joiner})\s*${day})*`;
const ENGLISH_DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** The period words of one language, tested in this order on the matched period (lower case). */
interface PeriodWords {
  interval: RegExp;
  hours: RegExp;
  minutes: RegExp;
  monthDay: RegExp;
  weekdays: RegExp;
  daily: RegExp;
  morning: RegExp;
  evening: RegExp;
  weekly: RegExp;
  monthly: RegExp;
  days: [RegExp, number][];
  /** What to strip before looking for day names (Japanese 曜日, Chinese 每周). */
  dayText?: (period: string) => string;
}

function periodOf(words: PeriodWords): (period: string) => string | undefined {
  return (raw) => {
    const period = raw.toLowerCase().replace(/\s+/g, ' ');
    const count = /\d{1,3}/.exec(period)?.[0];
    if (words.interval.test(period)) {
      const unit = words.hours.test(period) ? 'hours' : words.minutes.test(period) ? 'minutes' : 'seconds';
      return `every ${count ?? 1} ${unit}`;
    }
    if (count && words.monthDay.test(period)) return `every month on the ${count}`;
    if (words.weekdays.test(period)) return 'every weekday';
    if (words.daily.test(period)) return 'every day';
    if (words.morning.test(period)) return 'every morning';
    if (words.evening.test(period)) return 'every evening';
    if (words.weekly.test(period)) return 'every week';
    if (words.monthly.test(period)) return 'every month';
    const dayText = words.dayText ? words.dayText(period) : period;
    const days = words.days.filter(([name]) => name.test(dayText)).map(([, day]) => ENGLISH_DAYS[day]);
    return days.length ? `every ${days.join(' and ')}` : undefined;
  };
}

/** "9", "9:30", "9.30", "9h30", "9時半", "下午5点" → "H:MM" (24 h); afternoon words add 12 to a morning hour. */
function clockOf(pm: RegExp, noon: RegExp, midnight: RegExp): (time: string) => string | undefined {
  return (raw) => {
    const time = raw.toLowerCase().replace(/\s+/g, '');
    if (noon.test(time) && !/\d/.test(time)) return '12:00';
    if (midnight.test(time) && !/\d/.test(time)) return '0:00';
    const match = /(\d{1,2})(?:\D{1,2}?(\d{1,2}|半))?/u.exec(time);
    if (!match) return undefined;
    let hour = Number(match[1]);
    const minute = match[2] === '半' ? 30 : Number(match[2] ?? 0);
    if (pm.test(time) && hour >= 1 && hour < 12) hour += 12;
    return hour <= 23 && minute <= 59 ? `${hour}:${String(minute).padStart(2, '0')}` : undefined;
  };
}

function phrase(
  language: string,
  period: string,
  time: string,
  words: PeriodWords,
  clock: (time: string) => string | undefined,
  /** Chinese and Japanese: an instruction may follow a time with no comma or space ("每周一上午9点更新依赖"), never a bare period. */
  joinedAfterTime = false,
  separator = SEPARATOR,
  /** The word before a time ("um", "à"): followed by no readable time, the rules read nothing. */
  timeWord = '',
): PhraseLanguage {
  const afterTime = joinedAfterTime ? `(?:${separator})?` : `(?:${separator})`;
  // A time word not followed by a time the rules read ("jeden Montag um neun, …") leaves the message to the model reader.
  const unreadTime = timeWord ? `(?!\\s*(?:,\\s*)?(?:${timeWord})\\s)` : '';
  return {
    language,
    pattern: new RegExp(`${MENTION}(?<period>${period})(?:\\s*(?:,\\s*)?${time}${afterTime}|${unreadTime}(?:${separator}))(?<rest>[\\s\\S]+)$`, 'iu'),
    period: periodOf(words),
    clock,
  };
}

const NEVER = /$^/;

const DAY_DE = '(?:montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonnabend|sonntag)';
const GERMAN = phrase(
  'de',
  [
    String.raw`alle\s+\d{1,3}\s+(?:stunden|minuten|sekunden)`,
    String.raw`jede\s+(?:stunde|minute|sekunde)|stündlich`,
    String.raw`am\s+\d{1,2}\.?\s+(?:jedes|eines\s+jeden)\s+monats|jeden\s+monat\s+am\s+\d{1,2}\.?`,
    String.raw`jeden\s+werktag|an\s+werktagen|werktags|montags\s+bis\s+freitags|von\s+montag\s+bis\s+freitag`,
    String.raw`jeden\s+(?:tag|morgen|abend|monat)|jede\s+woche|täglich|wöchentlich|monatlich`,
    String.raw`jeden\s+${list(DAY_DE, ',|und|&')}`,
    list(`${DAY_DE}s`, ',|und|&'),
  ].join('|'),
  String.raw`um\s+(?<time>\d{1,2}(?:[:.]\d{2})?(?:\s*uhr)?|mitternacht)`,
  {
    interval: /^alle|stunde|minute|sekunde|stündlich/,
    hours: /stunde|stündlich/,
    minutes: /minute/,
    monthDay: /monat/,
    weekdays: /werktag|bis/,
    daily: /^jeden tag$|täglich/,
    morning: /morgen/,
    evening: /abend/,
    weekly: /woche/,
    monthly: /monat/,
    days: [
      [/montag/, 1],
      [/dienstag/, 2],
      [/mittwoch/, 3],
      [/donnerstag/, 4],
      [/freitag/, 5],
      [/samstag|sonnabend/, 6],
      [/sonntag/, 0],
    ],
  },
  clockOf(NEVER, /mittag/, /mitternacht/),
  false,
  SEPARATOR,
  'um',
);

const DAY_FR = '(?:lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche)s?';
const FRENCH = phrase(
  'fr',
  [
    String.raw`toutes\s+les\s+(?:\d{1,3}\s+)?(?:heures|minutes|secondes)|chaque\s+(?:heure|minute|seconde)`,
    String.raw`(?:le\s+)?\d{1,2}(?:er|e)?\s+de\s+chaque\s+mois|(?:chaque|tous\s+les)\s+mois\s+le\s+\d{1,2}(?:er|e)?`,
    String.raw`(?:chaque\s+jour|tous\s+les\s+jours)\s+ouvr[ée]s?|en\s+semaine|du\s+lundi\s+au\s+vendredi`,
    String.raw`chaque\s+(?:jour|semaine|mois|matin|soir)|tous\s+les\s+(?:jours|mois|matins|soirs)|toutes\s+les\s+semaines|quotidiennement`,
    String.raw`(?:chaque|tous\s+les)\s+${list(DAY_FR, ',|et|&')}`,
  ].join('|'),
  String.raw`[àa]\s+(?<time>\d{1,2}(?:\s*h(?:\s*\d{2})?|:\d{2})?|midi|minuit)`,
  {
    interval: /heure|minute|seconde/,
    hours: /heure/,
    minutes: /minute/,
    monthDay: /mois/,
    weekdays: /ouvr|^en semaine|au vendredi/,
    daily: /jours?$|quotidien/,
    morning: /matin/,
    evening: /soir/,
    weekly: /semaine/,
    monthly: /mois/,
    days: [
      [/lundi/, 1],
      [/mardi/, 2],
      [/mercredi/, 3],
      [/jeudi/, 4],
      [/vendredi/, 5],
      [/samedi/, 6],
      [/dimanche/, 0],
    ],
  },
  clockOf(NEVER, /midi/, /minuit/),
  false,
  SEPARATOR,
  '[àa]',
);

const DAY_ES = '(?:lunes|martes|mi[ée]rcoles|jueves|viernes|s[áa]bados?|domingos?)';
const SPANISH = phrase(
  'es',
  [
    String.raw`cada\s+(?:\d{1,3}\s+)?(?:horas?|minutos?|segundos?)`,
    String.raw`(?:el\s+)?(?:d[íi]a\s+)?\d{1,2}\s+de\s+cada\s+mes|cada\s+mes\s+el\s+(?:d[íi]a\s+)?\d{1,2}`,
    String.raw`(?:cada\s+d[íi]a|todos\s+los\s+d[íi]as|los\s+d[íi]as)\s+(?:laborables|h[áa]biles)|de\s+lunes\s+a\s+viernes|entre\s+semana`,
    String.raw`cada\s+(?:d[íi]a|semana|mes|mañana|noche)|todos\s+los\s+(?:d[íi]as|meses)|todas\s+las\s+(?:semanas|mañanas|noches)|a\s+diario|diariamente|semanalmente|mensualmente`,
    String.raw`(?:cada|todos\s+los|los)\s+${list(DAY_ES, ',|y|&')}`,
  ].join('|'),
  String.raw`a\s+(?:las?\s+)?(?<time>\d{1,2}(?::\d{2})?(?:\s*h(?:oras|s)?)?(?:\s+de\s+la\s+(?:mañana|tarde|noche))?|mediod[íi]a|medianoche)`,
  {
    interval: /hora|minuto|segundo/,
    hours: /hora/,
    minutes: /minuto/,
    monthDay: /\bmes\b/,
    weekdays: /laborable|h[áa]bil|lunes a viernes|entre semana/,
    daily: /d[íi]as?$|diari/,
    morning: /mañana/,
    evening: /noche/,
    weekly: /semana/,
    monthly: /\bmes(?:es)?\b|mensual/,
    days: [
      [/lunes/, 1],
      [/martes/, 2],
      [/mi[ée]rcoles/, 3],
      [/jueves/, 4],
      [/viernes/, 5],
      [/s[áa]bado/, 6],
      [/domingo/, 0],
    ],
  },
  clockOf(/tarde|noche/, /mediod/, /medianoche/),
  false,
  SEPARATOR,
  String.raw`a\s+las?`,
);

const DAY_PT = String.raw`(?:(?:segunda|ter[çc]a|quarta|quinta|sexta)s?(?:-feiras?)?|s[áa]bados?|domingos?)`;
const PORTUGUESE = phrase(
  'pt',
  [
    String.raw`a\s+cada\s+(?:\d{1,3}\s+)?(?:horas?|minutos?|segundos?)|(?:toda|cada)\s+(?:hora|minuto)`,
    String.raw`(?:todo\s+|no\s+)?dia\s+\d{1,2}\s+de\s+cada\s+m[êe]s|todo\s+dia\s+\d{1,2}\b|(?:todo|cada)\s+m[êe]s\s+no\s+dia\s+\d{1,2}`,
    String.raw`(?:todo|cada)\s+dia\s+[úu]til|(?:todos\s+os|em|nos)\s+dias\s+[úu]teis|de\s+segunda\s+a\s+sexta`,
    String.raw`(?:todo|cada)\s+(?:dia|m[êe]s)|toda\s+(?:semana|manh[ãa]|noite)|todos\s+os\s+(?:dias|meses)|todas\s+as\s+(?:semanas|manh[ãa]s|noites)|diariamente|semanalmente|mensalmente`,
    String.raw`(?:toda|todo|cada|todas\s+as|todos\s+os|[àa]s|aos)\s+${list(DAY_PT, ',|e|&')}`,
  ].join('|'),
  String.raw`(?:[àa]s?|ao)\s+(?<time>\d{1,2}(?:\s*h(?:\s*\d{2})?|:\d{2})?(?:\s*horas)?(?:\s+da\s+(?:manh[ãa]|tarde|noite))?|meio-dia|meia-noite)`,
  {
    interval: /hora|minuto|segundo/,
    hours: /hora/,
    minutes: /minuto/,
    monthDay: /m[êe]s|^todo dia \d/,
    weekdays: /[úu]t(?:il|eis)|segunda a sexta/,
    daily: /dias?$|diari/,
    morning: /manh/,
    evening: /noite/,
    weekly: /semana/,
    monthly: /m[êe]s|meses|mensal/,
    days: [
      [/segunda/, 1],
      [/ter[çc]a/, 2],
      [/quarta/, 3],
      [/quinta/, 4],
      [/sexta/, 5],
      [/s[áa]bado/, 6],
      [/domingo/, 0],
    ],
  },
  clockOf(/tarde|noite/, /meio-dia/, /meia-noite/),
  false,
  SEPARATOR,
  '[àa]s|ao',
);

// 、 never joins days: "毎週月曜日、日次レポート…" is Monday, then the instruction.
const DAY_JA = '[月火水木金土日](?:曜日?)?';
const JAPANESE = phrase(
  'ja',
  [
    String.raw`\d{1,3}\s*(?:時間|分|秒)\s*(?:ごと|おき|毎)|毎時|毎分`,
    String.raw`毎月\s*\d{1,2}\s*日`,
    String.raw`毎平日|平日(?:の毎日)?`,
    String.raw`毎週\s*${list(DAY_JA, '・|と')}`,
    '毎日|毎朝|毎晩|毎夕|毎週|毎月',
  ].join('|'),
  String.raw`(?:の\s*)?(?<time>(?:(?:午前|午後)\s*)?\d{1,2}(?:[:：]\d{2}|\s*時(?:\s*\d{1,2}\s*分|半)?))(?:\s*に)?`,
  {
    interval: /時間|分|秒|毎時/,
    hours: /時間|毎時/,
    minutes: /分/,
    monthDay: /毎月/,
    weekdays: /平日/,
    daily: /^毎日$/,
    morning: /^毎朝$/,
    evening: /^毎(?:晩|夕)$/,
    weekly: /^毎週$/,
    monthly: /^毎月$/,
    days: [
      [/月/, 1],
      [/火/, 2],
      [/水/, 3],
      [/木/, 4],
      [/金/, 5],
      [/土/, 6],
      [/日/, 0],
    ],
    dayText: (period) => period.replace(/^毎週/, '').replace(/曜日?/g, ''),
  },
  clockOf(/午後/, NEVER, NEVER),
  true,
  SEPARATOR + NI,
);

const DAY_ZH = '(?:周|週|星期|礼拜|禮拜)?[一二三四五六日天]';
const CHINESE = phrase(
  'zh',
  [
    String.raw`每(?:隔)?\s*\d{1,3}\s*(?:个\s*)?(?:小时|小時|分钟|分鐘|秒钟?|秒鐘?)|每(?:个|個)?小[时時]|每分[钟鐘]`,
    String.raw`每(?:个|個)?月\s*\d{1,2}\s*[号號日]`,
    String.raw`(?:每(?:个|個|逢)?)?工作日|周一至周五|周一到周五|週一至週五`,
    String.raw`(?:每周|每週|每星期|每(?:个|個)星期|每逢(?:周|週|星期))${list('[一二三四五六日天]', '、|和|及|与|與')}(?:(?:、|和|及|与|與)${DAY_ZH})*`,
    '每天|每日|每天(?:早上|上午)|每早|每天晚上|每晚|每周|每週|每星期|每(?:个|個)?月',
  ].join('|'),
  String.raw`(?:(?:的|在)\s*)?(?<time>(?:(?:上午|早上|中午|下午|晚上|凌晨)\s*)?\d{1,2}(?:[:：]\d{2}|\s*[点點时時](?:\s*(?:\d{1,2}\s*分|半|整))?))`,
  {
    interval: /小[时時]|分[钟鐘]|秒/,
    hours: /小[时時]/,
    minutes: /分[钟鐘]/,
    monthDay: /月\s*\d/,
    weekdays: /工作日|至|到/,
    daily: /^每[天日]$/,
    morning: /早/,
    evening: /晚/,
    weekly: /^每(?:周|週|星期)$/,
    monthly: /^每(?:个|個)?月$/,
    days: [
      [/一/, 1],
      [/二/, 2],
      [/三/, 3],
      [/四/, 4],
      [/五/, 5],
      [/六/, 6],
      [/[日天]/, 0],
    ],
    dayText: (period) => period.replace(/^每(?:个|個|逢)?(?:周|週|星期)/, ''),
  },
  clockOf(/下午|晚上/, NEVER, NEVER),
  true,
);

const LANGUAGES = [GERMAN, FRENCH, SPANISH, PORTUGUESE, JAPANESE, CHINESE];

/** A schedule phrase of one of the six languages at the start of `text`, or undefined. */
export function readForeignPhrase(text: string): ForeignPhrase | undefined {
  for (const language of LANGUAGES) {
    const match = language.pattern.exec(text);
    const groups = match?.groups;
    if (!match || !groups) continue;
    const rest = (groups.rest ?? '').trim();
    if (!rest) continue;
    const period = language.period(groups.period ?? '');
    if (!period) continue;
    const when = match[0]
      .slice(0, match[0].length - (groups.rest ?? '').length)
      .replace(/^\s*(?:<@\w+>\s*|@wrench\b\s*)?/i, '')
      .replace(/(?:[\s,:;.\-–—，、：；。]|に)+$/u, '');
    const time = groups.time?.trim();
    return { language: language.language, period, time, clock: time === undefined ? undefined : language.clock(time), when, rest };
  }
  return undefined;
}
