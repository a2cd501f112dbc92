import { describe, expect, it } from 'vitest';
import type { InstructionReading } from '../../../src/instruction/instruction-types.js';
import { clarificationCard } from '../../../src/slack/clarification-card.js';
import { questionMessage, questionReminder, settledQuestionMessage, answeredLine } from '../../../src/slack/question-message.js';
import { de } from '../../../src/slack/strings/de.js';
import { en } from '../../../src/slack/strings/en.js';
import { es } from '../../../src/slack/strings/es.js';
import { fr } from '../../../src/slack/strings/fr.js';
import { ja } from '../../../src/slack/strings/ja.js';
import { pt } from '../../../src/slack/strings/pt.js';
import { zh } from '../../../src/slack/strings/zh.js';
import { stringsFor, THREAD_LANGUAGES, threadLanguage } from '../../../src/slack/strings/index.js';
import { understandingCard } from '../../../src/slack/understanding-card.js';

const thread = { channel: 'C0DEV', threadTs: '1700000000.000100' };
const view = (language?: string) => ({
  pauseId: 'p1',
  ...thread,
  requester: 'U0ALICE',
  question: 'Welche API-Version?',
  suggestedAnswers: ['v1', 'v2'],
  timeoutAt: new Date('2026-11-26T10:00:00Z'),
  language,
});
const illFormed: InstructionReading = {
  category: 'bug-fixing',
  complexity: 'simple',
  verdict: 'ill-formed',
  missing: ['location'],
  elements: {},
  questions: [{ element: 'location', question: 'In welcher Datei wird die Summe berechnet?' }],
};

/** The words a language says as English does (loanwords); any other string left in English fails (examples of paths aside). */
const SAID_AS_IN_ENGLISH: Record<string, string[]> = {
  de: ['categories.refactoring'],
  ja: [],
  es: ['report.tokens'],
  fr: ['complexity.simple', 'report.tokens'],
  pt: ['report.tokens'],
  zh: [],
};

describe("the thread's strings, one catalogue per language", () => {
  it('every catalogue translates only what English says, and English fills what one lacks', () => {
    for (const language of THREAD_LANGUAGES) {
      const strings = stringsFor(language);
      expect(Object.keys(strings).sort()).toEqual(Object.keys(en).sort());
      expect(Object.keys(strings.categories).sort()).toEqual(Object.keys(en.categories).sort());
    }
    expect(stringsFor('de-AT').cancel).toBe('Abbrechen');
    expect(stringsFor('ja_JP').cancel).toBe('キャンセル');
    expect(stringsFor('fr-CA').cancel).toBe('Annuler');
    expect(stringsFor('it').cancel).toBe('Cancel');
    expect(stringsFor(undefined)).toBe(en);
    expect(Object.keys(stringsFor('es').phases).sort()).toEqual(Object.keys(en.phases).sort());
    expect(stringsFor('es').phases.working).toBe(':hammer_and_wrench: Trabajando');
    expect(stringsFor('ja').phases.done).toBe(':white_check_mark: 完了');
    expect(stringsFor('fr').phases.working).toBe(':hammer_and_wrench: Travail en cours');
    expect(stringsFor('pt-BR').cancel).toBe('Cancelar');
    expect(stringsFor('pt-PT').phases.working).toBe(':hammer_and_wrench: Trabalhando');
    expect(stringsFor('zh-CN').phases.working).toBe(':hammer_and_wrench: 工作中');
    // The zh catalogue is Simplified: Traditional Chinese (Taiwan, Hong Kong, said so) has none and is English.
    for (const traditional of ['zh-TW', 'zh_HK', 'zh-Hant', 'zh-Hant-TW']) expect(stringsFor(traditional), traditional).toBe(en);
    for (const simplified of ['zh-Hans-CN', 'zh-SG', 'zh-Hans-HK']) expect(stringsFor(simplified).cancel, simplified).toBe('取消');
  });

  it('German, Japanese, Spanish, French, Portuguese and Chinese are complete: every key English has, none left in English words', () => {
    const keys = (strings: object, prefix = ''): string[] =>
      Object.entries(strings).flatMap(([key, value]) =>
        value && typeof value === 'object' && !Array.isArray(value) ? keys(value, `${prefix}${key}.`) : [`${prefix}${key}`],
      );
    const leaf = (strings: object, path: string) => path.split('.').reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], strings);
    // Said the same in German, Spanish and French as in English: a catalogue may leave these to English.
    const neutral = ['review.countOf', 'stop.gap'];
    for (const [language, catalogue] of Object.entries({ de, ja, es, fr, pt, zh })) {
      const expected = keys(en).filter((key) => !neutral.includes(key) || keys(catalogue).includes(key));
      expect(keys(catalogue).sort(), language).toEqual(expected.sort());
      const same = keys(en).filter((path) => !path.endsWith('.placeholder') && typeof leaf(en, path) === 'string' && leaf(catalogue, path) === leaf(en, path));
      expect(same, language).toEqual(SAID_AS_IN_ENGLISH[language]);
    }
  });

  it('the thread speaks the language the requester wrote in; their Slack locale only when the writing told nothing', () => {
    expect(threadLanguage('de', 'ja-JP')).toBe('de');
    expect(threadLanguage(undefined, 'ja-JP')).toBe('ja');
    // The rules read no language: a French mention is French by the requester's Slack locale, France's or Canada's.
    expect(threadLanguage(undefined, 'fr-FR')).toBe('fr');
    expect(threadLanguage(undefined, 'fr-CA')).toBe('fr');
    expect(threadLanguage('fr', 'en-US')).toBe('fr');
    // Portuguese: Brazil's and Portugal's Slack locales, and a mention the rules read as Portuguese.
    expect(threadLanguage(undefined, 'pt-BR')).toBe('pt');
    expect(threadLanguage(undefined, 'pt-PT')).toBe('pt');
    expect(threadLanguage('pt', 'en-US')).toBe('pt');
    // Chinese: Simplified by the writing or a mainland Slack; Traditional Chinese has no catalogue, so English, and Han
    // text from someone whose Slack is in Traditional Chinese is theirs, not Simplified.
    expect(threadLanguage('zh', 'en-US')).toBe('zh');
    expect(threadLanguage(undefined, 'zh-CN')).toBe('zh');
    expect(threadLanguage('zh-CN', undefined)).toBe('zh');
    expect(threadLanguage(undefined, 'zh-TW')).toBe('en');
    expect(threadLanguage('zh-Hant', 'zh-CN')).toBe('en');
    expect(threadLanguage('zh', 'zh-TW')).toBe('en');
    expect(threadLanguage('zh', 'zh-HK')).toBe('en');
    // Written in a language without a catalogue: English, not the locale of someone who wrote otherwise.
    expect(threadLanguage('it', 'de-DE')).toBe('en');
    expect(threadLanguage(undefined, undefined)).toBe('en');
  });

  it('the clarification card, its buttons and the understanding card come in German', () => {
    const card = clarificationCard(illFormed, 'Summe falsch', thread, stringsFor('de'));
    expect(card.text).toBe(
      'Bevor ich anfange, brauche ich noch etwas mehr, damit ich nicht raten muss:\n1. In welcher Datei wird die Summe berechnet?\nAntworte hier im Thread oder drücke *Details ergänzen*.',
    );
    expect(JSON.stringify(card.blocks)).toContain('"text":"Details ergänzen"');
    expect(JSON.stringify(card.blocks)).toContain('"text":"Trotzdem starten"');
    const status = understandingCard(
      {
        category: 'bug-fixing',
        complexity: 'simple',
        summary: 'Die Summe korrigieren.',
        elements: { location: ['src/cart.js'], successCriteria: ['npm test'] },
      },
      'acme/shop',
      thread,
      stringsFor('de').queued(2),
      { strings: stringsFor('de') },
    );
    expect(status.text).toBe('Aufgabe (Fehlerbehebung) in acme/shop: :hourglass_flowing_sand: In der Warteschlange (Position 2)');
    const shown = JSON.stringify(status.blocks);
    for (const label of ['*Fehlerbehebung* · einfach', '*Wo:*', '*Fertig, wenn:*', '"text":"Abbrechen"']) expect(shown).toContain(label);
  });

  it("the agent's question, its buttons, the reminder and the settled question come in Japanese and German", () => {
    const ja = questionMessage(view('ja'));
    expect(ja.text).toBe('<@U0ALICE> 続ける前に質問があります:\n> Welche API-Version?');
    const blocks = JSON.stringify(ja.blocks);
    for (const label of ['"text":"おまかせ"', '"text":"キャンセル"', 'ボタンを押すか、このスレッドで返信してください']) expect(blocks).toContain(label);
    expect(blocks).toContain('<!date^1795687200^{date_short_pretty} {time}|2026-11-26T10:00:00.000Z>');
    expect(questionReminder(view('de')).text).toMatch(
      /^<@U0ALICE> Zur Erinnerung: Ich warte noch auf deine Antwort auf meine Frage oben \(Welche API-Version\?\)\. Ohne Antwort bis <!date\^\d+\^\{date_short_pretty\} um \{time\}/,
    );
    expect(settledQuestionMessage(view('de'), answeredLine('U0ALICE', 'v2')).text).toBe(
      '<@U0ALICE> Ich habe gefragt:\n> Welche API-Version?\n<@U0ALICE> hat geantwortet: v2',
    );
    expect(settledQuestionMessage(view(), (t) => t.noAnswerInTime).text).toContain('_No answer came in time, so I finish with what I have._');
  });
});
