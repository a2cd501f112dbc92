import { describe, expect, it } from 'vitest';
import { questionStop } from '../../../runners/profiles/change-profile.js';
import { AgentStop } from '../../../src/agent/agent-errors.js';
import { createLogger } from '../../../src/logging/logger.js';
import { renderProgress } from '../../../src/reporting/progress.js';
import { lateAnswerNote } from '../../../src/slack/question-message.js';
import { SlackTriageReporter } from '../../../src/slack/slack-triage-reporter.js';
import { stringsFor } from '../../../src/slack/strings/index.js';
import type { ThreadOutbox } from '../../../src/slack/thread-outbox.js';

const de = stringsFor('de');
const ja = stringsFor('ja');
const en = stringsFor('en');

describe("the status line, the question's timeout and a person's triage, in the thread's language", () => {
  it('the status line under the thread reads, waits for a worker and says what a queued run waits for in German and Japanese', () => {
    expect(de.statusLine.reading).toBe('liest deine Anfrage…');
    expect(de.statusLine.readingSteps('acme/shop')).toEqual(['Lese deine Anfrage…', 'Schaue mir acme/shop an…']);
    expect(ja.statusLine.reading).toBe('がリクエストを読んでいます…');
    expect(ja.statusLine.readingSteps('acme/shop')).toEqual(['リクエストを読んでいます…', 'acme/shop を確認しています…']);
    expect(de.statusLine.waitingForWorker).toBe('wartet auf einen freien Worker…');
    expect(ja.statusLine.waitingForWorker).toBe('が空きワーカーを待っています…');
    // What the runner says it waits for (a typed detail), in the thread's words (as the status line shows it).
    const waiting = (t: typeof en) => t.statusLine.waitingOn(renderProgress({ key: 'waitingGlobal' }, t.progress));
    expect(waiting(de)).toBe('wartet auf einen freien Platz (alle Worker sind beschäftigt)…');
    expect(waiting(ja)).toBe('が待機しています(空きワーカー待ち(すべてのワーカーが使用中))…');
    // English as before; Spanish in Spanish, French in French.
    expect(waiting(en)).toBe('is waiting for a free slot (all workers are busy)…');
    expect(en.statusLine.reading).toBe('is reading your request…');
    expect(stringsFor('es').statusLine.reading).toBe('está leyendo tu solicitud…');
    // What a run just queued waits for, in its streamed title.
    expect(ja.plan.state('queued', ja.plan.queuePosition(2))).toBe('順番待ち: 2番目');
    expect(de.plan.state('queued', de.plan.queuePosition(2))).toBe('In der Warteschlange: Position 2');
    expect(en.plan.state('queued', en.plan.behindThreadRun)).toBe('Queued: behind the run already going in this thread');
    expect(waiting(stringsFor('es'))).toBe('está esperando un hueco libre (todos los workers están ocupados)…');
    const fr = stringsFor('fr');
    expect([fr.statusLine.reading, fr.statusLine.waitingForWorker]).toEqual(['lit votre demande…', 'attend un worker libre…']);
    expect(waiting(fr)).toBe('est en attente d’une place libre (tous les workers sont occupés)…');
    expect(fr.plan.state('queued', fr.plan.queuePosition(2))).toBe('En file d’attente : position 2 dans la file');
    const pt = stringsFor('pt');
    expect([pt.statusLine.reading, pt.statusLine.waitingForWorker]).toEqual(['está lendo sua solicitação…', 'está aguardando um worker livre…']);
    expect(waiting(pt)).toBe('está aguardando uma vaga livre (todos os workers estão ocupados)…');
    expect(pt.plan.state('queued', pt.plan.queuePosition(2))).toBe('Na fila: posição 2 na fila');
    const zh = stringsFor('zh');
    expect([zh.statusLine.reading, zh.statusLine.waitingForWorker]).toEqual(['正在阅读你的请求…', '正在等待空闲的 worker…']);
    expect(waiting(zh)).toBe('正在等待空闲名额（所有 worker 都在忙）…');
    expect(zh.plan.state('queued', zh.plan.queuePosition(2))).toBe('排队中：队列中第 2 位');
  });

  it("a question nobody answered stops the run in the thread's words, the time it waited as measured", () => {
    const stop = new AgentStop('no_answer', en.stop.noAnswer('7s'));
    expect(stop.message).toBe('Nobody answered my question within 7s, so I stopped there.');
    expect(questionStop(stop, de.stop)).toBe('Niemand hat meine Frage innerhalb von 7s beantwortet, deshalb habe ich dort aufgehört.');
    expect(questionStop(stop, ja.stop)).toBe('7s 以内に質問への回答がなかったため、そこで停止しました。');
    expect(questionStop(stop, en.stop)).toBe(stop.message);
    expect(questionStop(new AgentStop('step_limit', 'The step limit (3 steps) was reached.'), de.stop)).toBeUndefined();
    expect(de.questionExpired).toMatch(/^:warning: Dieser Lauf hat auf eine Antwort/);
    expect(ja.questionExpiredNext).toBe('やり直すには、このスレッドで私をメンションしてください。質問の前にプッシュした作業はブランチにあります。');
  });

  it('a run restarted after an interruption says so in German and Japanese, English as before', () => {
    expect(de.restartedAfterInterruption).toBe(
      ':arrows_counterclockwise: Wrench wurde nach einer Unterbrechung neu gestartet: Dieser Lauf beginnt noch einmal von vorn.',
    );
    expect(ja.restartedAfterInterruption).toBe(':arrows_counterclockwise: 中断の後に Wrench が再起動しました。この実行は最初からやり直します。');
    expect(en.restartedAfterInterruption).toBe(':arrows_counterclockwise: Wrench restarted after an interruption: this run starts again from the beginning.');
  });

  it('a late answer, a stale one and one from someone else are told so in German and Japanese', () => {
    const question = { question: 'Welche  API-Version\nsoll ich nehmen?', timedOutAt: '2026-11-26T10:00:00.000Z' };
    const date = '<!date^1795687200^{date_short_pretty} um {time}|2026-11-26T10:00:00.000Z>';
    expect(lateAnswerNote(question, '<@U0BOT>', de)).toBe(
      `Meine Frage („Welche API-Version soll ich nehmen?“) ist ${date} ohne Antwort abgelaufen, deshalb hat der Lauf mit dem abgeschlossen, was er hatte, und deine Nachricht zählt nicht als seine Antwort. Um weiterzumachen, erwähne mich in diesem Thread mit deiner Antwort (<@U0BOT> und dahinter die Antwort): Das startet einen Folgelauf, der die Arbeit dieses Threads fortsetzt.`,
    );
    const japanese = lateAnswerNote(question, '@Wrench', ja);
    expect(japanese.startsWith('私の質問')).toBe(true);
    expect(japanese).toContain('「Welche API-Version soll ich nehmen?」');
    expect(japanese).toContain(' <!date^1795687200^{date_short_pretty} {time}|2026-11-26T10:00:00.000Z> に回答がないまま期限切れになったため');
    expect(japanese).toContain('@Wrench の後に回答');
    // English word for word as it was.
    expect(lateAnswerNote(question, '<@U0BOT>', en)).toBe(
      'My question ("Welche API-Version soll ich nehmen?") timed out <!date^1795687200^{date_short_pretty} at {time}|2026-11-26T10:00:00.000Z> with no answer, so that run ended with what it had, and your reply was not taken as its answer. To go on, mention me in this thread with your answer (<@U0BOT> followed by it): that starts a follow-up run that continues this thread\'s work.',
    );
    expect(de.questionStale).toBe('Diese Frage wurde schon beantwortet oder ist abgelaufen.');
    expect(ja.questionNotYours('U0ALICE')).toMatch(/^ありがとうございます。この質問は <@U0ALICE> さんに尋ねたもの/);
  });

  it("a person's triage says its status in their language; an incident's own triage in English", () => {
    const reporter = (language?: string) =>
      new SlackTriageReporter(
        {} as ThreadOutbox,
        { channel: 'C0', threadTs: '1.1', statusKey: 'status:t', repository: 'acme/shop', language },
        undefined,
        createLogger({ level: 'silent' }),
      );
    expect(reporter('de').statusText('working', { key: 'readingIncident' })).toBe(':mag: Triage: der Vorfall, seine Alarme und Logeinträge werden gelesen');
    expect(reporter('ja').statusText('working')).toBe(':mag: 調査: 調査中');
    expect(reporter('de').statusText('done', { text: 'A bad deploy.' })).toMatch(/^:white_check_mark: Triage nach \d+s abgeschlossen: A bad deploy\.$/);
    expect(reporter('ja').statusText('failed')).toMatch(/^:x: 調査に失敗しました\(\d+s\)$/);
    expect(reporter().statusText('done', { text: 'A bad deploy.' })).toMatch(/^:white_check_mark: Triage finished in \d+s: A bad deploy\.$/);
    expect(reporter().statusText('working')).toBe(':mag: Triage: investigating');
    expect(de.triage.queued('`acme/shop`')).toBe(
      ':mag: Triage eingereiht: Ich untersuche `acme/shop` nur lesend (die letzten Änderungen und den Code) und berichte hier.',
    );
  });
});
