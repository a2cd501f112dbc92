import { describe, expect, it } from 'vitest';
import { readSchedule } from '../../../src/schedules/schedule-phrase.js';
import { schedulesDe, schedulesEn, schedulesJa, schedulesZh } from '../../../src/schedules/schedule-strings.js';
import { cronProblem, formatRunTime, isTimeZone, nextRuns, shortestGapSeconds } from '../../../src/schedules/schedule-times.js';

describe('readSchedule', () => {
  it.each([
    [
      'every Monday at 9:00, update the minor versions of our npm dependencies and open a PR',
      '0 9 * * 1',
      'update the minor versions of our npm dependencies and open a PR',
    ],
    ['every 3 seconds: add a line', '*/3 * * * * *', 'add a line'],
    ['every weekday at 5pm run the audit', '0 17 * * 1-5', 'run the audit'],
    ['at 8:30 every Monday and Thursday, bump deps', '30 8 * * 1,4', 'bump deps'],
    ['daily: check the links', '0 9 * * *', 'check the links'],
    ['cron "*/2 * * * * *": do x', '*/2 * * * * *', 'do x'],
    ['on cron `0 9 * * 1` update the lock file', '0 9 * * 1', 'update the lock file'],
    ['every month on the 1st at 6am, rotate the keys', '0 6 1 * *', 'rotate the keys'],
    ['every 2 hours, refresh', '0 */2 * * *', 'refresh'],
    ['every Tuesday update the changelog', '0 9 * * 2', 'update the changelog'],
    ['Every friday at 12:15pm: tidy', '15 12 * * 5', 'tidy'],
  ])('%s', (text, cron, instruction) => {
    expect(readSchedule(text)).toMatchObject({ cron, instruction });
  });

  it('leaves ordinary tasks alone, "every" inside them included', () => {
    expect(readSchedule('every function in src/ needs a test')).toBeUndefined();
    expect(readSchedule('add a test for formatBytes; run it every day')).toBeUndefined();
    expect(readSchedule('every Monday')).toBeUndefined();
  });

  it('leaves a time it cannot read to the model reader rather than take "at nine, …" for the instruction', () => {
    expect(readSchedule('on Mondays at nine, could you update the npm dependencies?')).toBeUndefined();
    expect(readSchedule('jeden Montag um neun, aktualisiere die Abhängigkeiten')).toBeUndefined();
    expect(readSchedule('chaque lundi à neuf heures, mets à jour les dépendances')).toBeUndefined();
    expect(readSchedule('todos los días a las nueve, revisa los enlaces')).toBeUndefined();
    expect(readSchedule('on Mondays at 9:00, update the npm dependencies')).toMatchObject({ cron: '0 9 * * 1', instruction: 'update the npm dependencies' });
  });

  it('says what is wrong with a time or a pattern it cannot read', () => {
    expect(readSchedule('every Monday at 25:00, update')).toMatchObject({ problem: expect.stringContaining('25:00') });
    expect(readSchedule('cron "61 * * * *": update')).toMatchObject({ problem: expect.stringContaining('61 * * * *') });
    expect(readSchedule('every 3 seconds at 9:00, x')).toMatchObject({ problem: expect.stringContaining('no time of day') });
  });
});

describe('readSchedule in the other six languages', () => {
  it.each([
    ['de', 'jeden Montag um 9:00, aktualisiere die Minor-Versionen unserer npm-Abhängigkeiten', '0 9 * * 1', 'jeden Montag um 9:00'],
    ['de', 'montags und donnerstags um 8.30 Uhr: Abhängigkeiten aktualisieren', '30 8 * * 1,4', 'montags und donnerstags um 8.30 Uhr'],
    ['de', 'werktags um 17 Uhr den Audit laufen lassen', '0 17 * * 1-5', 'werktags um 17 Uhr'],
    ['de', 'jeden Tag: Links prüfen', '0 9 * * *', 'jeden Tag'],
    ['de', 'alle 2 Stunden, aktualisieren', '0 */2 * * *', 'alle 2 Stunden'],
    ['de', 'jeden Monat am 1. um 6 Uhr die Schlüssel rotieren', '0 6 1 * *', 'jeden Monat am 1. um 6 Uhr'],
    ['fr', 'chaque lundi à 9h, mets à jour les dépendances npm', '0 9 * * 1', 'chaque lundi à 9h'],
    ['fr', 'tous les lundis et jeudis à 8h30 : mettre à jour', '30 8 * * 1,4', 'tous les lundis et jeudis à 8h30'],
    ['fr', "tous les jours ouvrés à 17h lancer l'audit", '0 17 * * 1-5', 'tous les jours ouvrés à 17h'],
    ['fr', 'toutes les 2 heures, rafraîchir', '0 */2 * * *', 'toutes les 2 heures'],
    ['fr', 'le 1er de chaque mois à midi, tourner les clés', '0 12 1 * *', 'le 1er de chaque mois à midi'],
    ['es', 'cada lunes a las 9:00, actualiza las dependencias', '0 9 * * 1', 'cada lunes a las 9:00'],
    ['es', 'todos los días a las 5 de la tarde, revisa los enlaces', '0 17 * * *', 'todos los días a las 5 de la tarde'],
    ['es', 'de lunes a viernes a las 17:30 ejecuta la auditoría', '30 17 * * 1-5', 'de lunes a viernes a las 17:30'],
    ['es', 'cada 30 minutos: refresca la caché', '*/30 * * * *', 'cada 30 minutos'],
    ['es', 'el día 1 de cada mes a las 6, rota las claves', '0 6 1 * *', 'el día 1 de cada mes a las 6'],
    ['pt', 'toda segunda-feira às 9h, atualize as dependências', '0 9 * * 1', 'toda segunda-feira às 9h'],
    ['pt', 'todos os dias às 18:00: verifique os links', '0 18 * * *', 'todos os dias às 18:00'],
    ['pt', 'nos dias úteis às 17h rode a auditoria', '0 17 * * 1-5', 'nos dias úteis às 17h'],
    ['pt', 'toda sexta às 12:15: arrume o changelog', '15 12 * * 5', 'toda sexta às 12:15'],
    ['pt', 'a cada 2 horas, atualize o cache', '0 */2 * * *', 'a cada 2 horas'],
    ['ja', '毎週月曜日の9時に、npm の依存関係のマイナーバージョンを更新して PR を作成して', '0 9 * * 1', '毎週月曜日の9時'],
    ['ja', '毎週月曜日に依存関係を更新して', '0 9 * * 1', '毎週月曜日'],
    ['ja', '平日の17時30分に監査を実行して', '30 17 * * 1-5', '平日の17時30分'],
    ['ja', '毎週月・木曜日の午後5時に更新して', '0 17 * * 1,4', '毎週月・木曜日の午後5時'],
    ['ja', '2時間ごとに更新して', '0 */2 * * *', '2時間ごと'],
    ['ja', '毎月1日の午前6時に鍵をローテーションして', '0 6 1 * *', '毎月1日の午前6時'],
    ['zh', '每周一上午9点，更新 npm 依赖的次版本并提交 PR', '0 9 * * 1', '每周一上午9点'],
    ['zh', '每周一上午9点更新依赖', '0 9 * * 1', '每周一上午9点'],
    ['zh', '每个工作日下午5点运行审计', '0 17 * * 1-5', '每个工作日下午5点'],
    ['zh', '每天晚上8点：备份数据库', '0 20 * * *', '每天晚上8点'],
    ['zh', '每天早上，运行测试', '0 9 * * *', '每天早上'],
    ['zh', '每周一和周四：更新依赖', '0 9 * * 1,4', '每周一和周四'],
    ['zh', '每2小时，刷新缓存', '0 */2 * * *', '每2小时'],
    ['zh', '每月1号早上6点，轮换密钥', '0 6 1 * *', '每月1号早上6点'],
  ])('%s: %s', (language, text, cron, when) => {
    const read = readSchedule(text);
    expect(read).toMatchObject({ cron, when, language });
    expect(text.endsWith((read as { instruction: string }).instruction)).toBe(true);
  });

  it.each([
    'jede Funktion in src/ braucht einen Test',
    'jeden Montag',
    'füge einen Test hinzu, der jeden Montag läuft',
    'chaque fonction de src/ doit avoir un test',
    "tous les fichiers de src/ ont besoin d'un test",
    'cada función en src/ necesita una prueba',
    'todos los archivos de src/ necesitan pruebas',
    'toda função em src/ precisa de um teste',
    'todos os arquivos em src/ precisam de testes',
    'すべての関数にテストが必要です',
    '毎日テストが落ちるので直して',
    '毎回ビルドが失敗する、直して',
    '每个函数都需要测试',
    '每天都崩溃，修一下',
    '每次构建都失败，修一下',
  ])('leaves a task alone: %s', (text) => {
    expect(readSchedule(text)).toBeUndefined();
  });

  it('says what is wrong in the language the schedule was asked in', () => {
    const de = readSchedule('jeden Montag um 25:00, aktualisiere die Abhängigkeiten');
    expect(de).toMatchObject({ reason: { kind: 'time', time: '25:00' }, language: 'de' });
    expect(schedulesDe.problem((de as { reason: Parameters<typeof schedulesDe.problem>[0] }).reason)).toBe(
      '„25:00“ ist keine Uhrzeit (schreib 9:00, 17:30 oder 17 Uhr)',
    );
    const ja = readSchedule('毎週月曜日の25時に、更新して');
    expect(schedulesJa.problem((ja as { reason: Parameters<typeof schedulesJa.problem>[0] }).reason)).toContain('「25時」は時刻として読めません');
    const zh = readSchedule('每5秒钟下午3点，刷新');
    expect(zh).toMatchObject({ reason: { kind: 'allDay' }, language: 'zh' });
    expect(schedulesZh.problem((zh as { reason: Parameters<typeof schedulesZh.problem>[0] }).reason)).toBe('“每5秒钟下午3点”全天运行，不能再指定时间');
    // English stays word for word what it was.
    expect(schedulesEn.problem({ kind: 'time', time: '25:00' })).toBe('"25:00" is not a time of day (write 9:00, 17:30 or 5pm)');
  });
});

describe('schedule times (cron-parser, as BullMQ reads them)', () => {
  it('gives the next runs in the requester’s time zone', () => {
    const from = new Date('2026-11-29T12:00:00Z'); // a Sunday
    const runs = nextRuns('0 9 * * 1', 'Europe/Berlin', 3, from);
    expect(runs.map((r) => r.toISOString())).toEqual(['2026-11-30T08:00:00.000Z', '2026-12-07T08:00:00.000Z', '2026-12-14T08:00:00.000Z']);
    expect(formatRunTime(runs[0] as Date, 'Europe/Berlin')).toBe('Mon, 30 Nov 2026, 09:00 (Europe/Berlin)');
    expect(nextRuns('0 9 * * 1', 'America/New_York', 1, from)[0]?.toISOString()).toBe('2026-11-30T14:00:00.000Z');
  });

  it('measures the shortest gap and refuses bad patterns and zones', () => {
    expect(shortestGapSeconds('*/3 * * * * *', 'UTC')).toBe(3);
    expect(shortestGapSeconds('0 9 * * 1-5', 'UTC')).toBe(24 * 3600);
    expect(cronProblem('0 9 * *')).toContain('5 fields');
    expect(cronProblem('0 9 * * 1')).toBeUndefined();
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });
});
