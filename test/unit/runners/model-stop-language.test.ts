import { describe, expect, it } from 'vitest';
import { modelStop, threadStopExplanation } from '../../../runners/profiles/change-profile.js';
import { AgentStop } from '../../../src/agent/agent-errors.js';
import { RunCancelled } from '../../../src/sessions/cancellation.js';
import type { RunResult } from '../../../src/reporting/run-result.js';
import { renderRunResult } from '../../../src/slack/render-run-result.js';
import { stringsFor } from '../../../src/slack/strings/index.js';

describe("a stop where the model failed or refused, in the thread's language", () => {
  const de = stringsFor('de').stop;
  const ja = stringsFor('ja').stop;

  it('says a refusal and a full context window in German and Japanese', () => {
    const refused = new AgentStop('refused', 'The model declined to continue with this task.');
    expect(modelStop(refused, de)).toBe('Das Modell hat abgelehnt, diese Aufgabe weiter zu bearbeiten.');
    expect(modelStop(refused, ja)).toBe('モデルがこのタスクの続行を拒否しました。');
    const full = new AgentStop('context_exhausted', 'The conversation no longer fits the model context window.');
    expect(modelStop(full, ja)).toBe('会話がモデルのコンテキストウィンドウに収まらなくなりました。');
  });

  it('says who cancelled a run waiting for an answer in German and Japanese, a cancel by signal as before', () => {
    const waiting = new AgentStop('cancelled', 'Cancelled by <@U0GRETA> while waiting for an answer.', { cancelledBy: '<@U0GRETA>' });
    expect(threadStopExplanation(waiting, undefined, de, de.keptOnBranch('`wrench/x`'))).toBe(
      'Von <@U0GRETA> abgebrochen, während der Lauf auf eine Antwort wartete. Die bis dahin erledigte Arbeit liegt auf dem Branch `wrench/x`.',
    );
    expect(threadStopExplanation(waiting, undefined, ja, ja.noBranchYet)).toBe(`回答を待っている間に <@U0GRETA> がキャンセルしました。${ja.noBranchYet}`);
    expect(stringsFor('en').stop.cancelledWhileWaiting('<@U0GRETA>')).toBe(waiting.message);
    const byButton = new AgentStop('cancelled', 'The run was cancelled.');
    expect(threadStopExplanation(byButton, new RunCancelled('<@U0GRETA>'), de, de.noBranchYet)).toBe(`${de.cancelledBy('<@U0GRETA>')} ${de.noBranchYet}`);
  });

  it("keeps the API's own words and status as they are", () => {
    const api = new AgentStop('model_failed', 'The model API failed (HTTP 529) after retries: Overloaded');
    expect(modelStop(api, de)).toBe('Die API des Modells ist auch nach erneuten Versuchen fehlgeschlagen (HTTP 529): Overloaded');
    expect(modelStop(api, ja)).toBe('モデルの API が再試行後も失敗しました(HTTP 529): Overloaded');
    const noStatus = new AgentStop('model_failed', 'The model API failed after retries: Connection error.');
    expect(modelStop(noStatus, de)).toBe('Die API des Modells ist auch nach erneuten Versuchen fehlgeschlagen: Connection error.');
    expect(modelStop(new AgentStop('model_failed', 'The agent failed: boom'), ja)).toBe('エージェントが失敗しました: boom');
    // English says what the loop said, word for word; other stops are not the model's.
    expect(modelStop(api, stringsFor('en').stop)).toBe(api.message);
    expect(modelStop(new AgentStop('step_limit', 'The step limit (3 steps) was reached.'), de)).toBeUndefined();
  });

  it('says Wrench\'s own "no file changed" answer in the thread, the run\'s English answer kept for the rest', () => {
    const result: RunResult = {
      status: 'answered',
      repository: 'acme/shop',
      instruction: 'tidy up',
      filesChanged: [],
      durationMs: 1000,
      answer: 'I finished without changing any file.',
      threadAnswer: stringsFor('de').finishedNoChange,
    };
    const text = renderRunResult(result, {}, stringsFor('de'))
      .map((part) => part.text)
      .join('\n');
    expect(text).toContain('Ich bin fertig, ohne eine Datei zu ändern.');
    // A category's section shows in the thread's words where it has them.
    const sectioned = renderRunResult(
      { ...result, sections: [{ title: 'Full suite', body: 'passes', inThread: { title: 'Ganze Testsuite', body: 'besteht' } }] },
      {},
      stringsFor('de'),
    )
      .map((part) => part.text)
      .join('\n');
    expect(sectioned).toContain('*Ganze Testsuite*\nbesteht');
    expect(sectioned).not.toContain('Full suite');
    expect(text).not.toContain('I finished without changing any file.');
  });
});
