import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../../src/reporting/run-result.js';
import { renderRunResult } from '../../../src/slack/render-run-result.js';
import { streamedResult } from '../../../src/slack/run-plan.js';
import { markdownToMrkdwn } from '../../../src/slack/slack-escape.js';
import { stringsFor } from '../../../src/slack/strings/index.js';

const cancelled: RunResult = {
  status: 'stopped',
  repository: 'acme/web',
  instruction: 'fix it',
  filesChanged: [],
  durationMs: 1000,
  stopCode: 'cancelled',
  stopReason: 'Cancelled by <@U0ALICE> on the run page. Nothing had changed yet, so there is no branch.',
  report: { summary: 'Pinged <@U0BOB> and <!channel>, see <https://evil.example|docs> &lt;!here&gt;', filesChanged: [], verification: '', openQuestions: [] },
};

/** Every `<…>` Slack would act on in mrkdwn or Slack's Markdown. */
const markup = (text: string) => text.match(/<[^>]*>/g) ?? [];

describe("Wrench's own mentions in a run's reply, and nobody else's", () => {
  it('streams the mention of who cancelled as a mention, and the agent’s mentions, <!channel> and links as text', () => {
    const reply = streamedResult(cancelled);
    expect(reply).toContain('Cancelled by <@U0ALICE> on the run page.');
    expect(markup(reply)).toEqual(['<@U0ALICE>']);
    expect(reply).toContain('&lt;@U0BOB>');
    expect(reply).toContain('&lt;!channel>');
    expect(reply).toContain('&amp;lt;!here&amp;gt;');
  });

  it('does the same in the card’s reply (mrkdwn) and in the ordinary message that stands in for a stream', () => {
    const card = renderRunResult(cancelled)
      .map((part) => part.text)
      .join('\n');
    expect(card).toContain('Cancelled by <@U0ALICE> on the run page.');
    expect(markup(card)).toEqual(['<@U0ALICE>']);
    const fallback = markdownToMrkdwn(streamedResult(cancelled));
    expect(fallback).toContain('Cancelled by <@U0ALICE> on the run page.');
    expect(markup(fallback)).toEqual(['<@U0ALICE>']);
    expect(fallback).toContain('&amp;lt;!here');
  });

  it("keeps a cancel's mention in the thread's language, and one while the run waited for an answer", () => {
    const de = stringsFor('de');
    const german = { ...cancelled, threadStopReason: `${de.stop.cancelledBy('<@U0ALICE>', 'home')} ${de.stop.noBranchYet}` };
    expect(markup(streamedResult(german, undefined, de))).toEqual(['<@U0ALICE>']);
    const waiting = { ...cancelled, stopReason: 'Cancelled by <@U0CAROL> while waiting for an answer. Nothing was pushed.' };
    expect(markup(streamedResult(waiting))).toEqual(['<@U0CAROL>']);
  });

  it('leaves a mention escaped where the stop reason does not open with Wrench’s own sentence (the agent’s or an API’s words)', () => {
    const failed = { ...cancelled, stopCode: 'model_failed', stopReason: 'The agent failed: <@U0ALICE> on the run page <!channel>.' };
    expect(markup(streamedResult(failed))).toEqual([]);
    expect(
      markup(
        renderRunResult(failed)
          .map((p) => p.text)
          .join('\n'),
      ),
    ).toEqual([]);
  });

  it('cannot be fooled by stand-in characters in outside text', () => {
    expect(markup(markdownToMrkdwn('a \uE0010\uE001 b &lt;!channel> <@U0ALICE>'))).toEqual(['<@U0ALICE>']);
    expect(markdownToMrkdwn('`a &lt; b && c`')).toContain('&lt; b');
  });
});
