import { describe, expect, it } from 'vitest';
import { changeProfile } from '../../../runners/profiles/change-profile.js';
import type { StartingRun } from '../../../runners/pipeline/run-pipeline.js';
import type { TaskJob } from '../../../src/queue/task-job.js';
import type { RunResult } from '../../../src/reporting/run-result.js';
import { renderRunResult } from '../../../src/slack/render-run-result.js';
import { stringsFor } from '../../../src/slack/strings/index.js';

const job = (language?: string): TaskJob => ({
  kind: 'task',
  origin: { type: 'slack', channel: 'C1', threadTs: '1700000000.000100', messageTs: '1700000000.000100' },
  repo: { owner: 'acme', name: 'shop' },
  instruction: 'fix the rounding',
  category: 'bug-fixing',
  complexity: 'simple',
  elements: {},
  ...(language ? { language } : {}),
  requester: { slackUserId: 'U1' },
  requestedAt: new Date().toISOString(),
  resume: { pauseId: 'gone' },
});

/** A resume job whose stored conversation is gone: the change profile's gather ends the run, rendered as the thread shows it. */
async function expiredReply(language?: string): Promise<{ result: RunResult; text: string }> {
  const profile = changeProfile({ resuming: true });
  const run = {
    job: job(language),
    state: profile.start(job(language)),
    deps: { questions: { take: async () => null } },
    started: Date.now(),
  } as unknown as StartingRun<TaskJob, ReturnType<typeof profile.start>>;
  const gathered = await profile.gather?.(run);
  const result = gathered?.stop as RunResult;
  const text = renderRunResult(result, {}, stringsFor(language))
    .map((part) => part.text)
    .join('\n');
  return { result, text };
}

describe('a resumed run whose stored conversation expired, in the thread language', () => {
  it('says the headline and what to do in German and Japanese, the run page keeping English', async () => {
    const de = await expiredReply('de');
    expect(de.text).toContain(':warning: Dieser Lauf hat auf eine Antwort');
    expect(de.text).toContain('Erwähne mich in diesem Thread, um neu anzufangen');
    expect(de.text).not.toContain('stored conversation has expired');
    expect(de.result.headline).toBe(stringsFor('en').questionExpired);
    const ja = await expiredReply('ja');
    expect(ja.text).toContain(':warning: この実行は質問への回答を待っていましたが、保存された会話の期限が切れたため、続行できません。');
    expect(ja.text).toContain('やり直すには、このスレッドで私をメンションしてください。');
    const en = await expiredReply();
    expect(en.text).toContain(':warning: This run waited for an answer to its question, but the stored conversation has expired, so it cannot go on.');
  });
});
