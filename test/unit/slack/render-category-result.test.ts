import { describe, expect, it } from 'vitest';
import { renderResultMarkdown } from '../../../src/reporting/render-result-text.js';
import type { RunResult } from '../../../src/reporting/run-result.js';
import { reviewSections } from '../../../src/review/render-review.js';
import { attachmentsComment, renderRunResult } from '../../../src/slack/render-run-result.js';

const base: RunResult = { status: 'answered', repository: 'acme/web', instruction: 'review PR #1', filesChanged: [], durationMs: 1000 };

describe('rendering category results', () => {
  it('uses the headline and shows sections in Slack and in the PR body', () => {
    const result: RunResult = {
      ...base,
      headline: ':mag: Review of PR #1: no findings',
      answer: 'Fine.',
      sections: [{ title: 'Findings', body: 'No findings: I found nothing to flag.' }],
    };
    const text = renderRunResult(result)
      .map((p) => p.text)
      .join('\n');
    expect(text.startsWith(':mag: Review of PR #1: no findings')).toBe(true);
    expect(text).not.toContain('No files changed');
    expect(text).toMatch(/\*Findings\*\u200B?\nNo findings: I found nothing to flag\./);
    expect(renderResultMarkdown(result, { forPullRequest: true })).toContain('## Findings\nNo findings: I found nothing to flag.');
  });

  it("turns the report's Markdown into Slack mrkdwn: lists, inline code, italics, links, escaping", () => {
    const summary =
      'Guarded **the cart** in `app/page.tsx` when it is _empty_:\n\n- `items && items.length > 0`\n- see [the issue](https://github.com/acme/web/issues/7)';
    const text = renderRunResult({ ...base, answer: summary })
      .map((p) => p.text)
      .join('\n');
    expect(text).toMatch(/\*the cart\*/);
    expect(text).toContain('`app/page.tsx`');
    expect(text).toMatch(/_empty_/);
    expect(text).toContain('•   `items && items.length > 0`'); // code keeps its characters
    expect(text).toContain('<https://github.com/acme/web/issues/7|the issue>');
    expect(renderRunResult({ ...base, answer: 'a < b & c' })[0]!.text).toContain('a &lt; b &amp; c');
  });

  it('shows the usage compactly in the thread and in detail elsewhere', () => {
    const result: RunResult = {
      ...base,
      answer: 'Done.',
      steps: 12,
      durationMs: 190_000,
      costUsd: 0.4213,
      usage: { inputTokens: 1200, outputTokens: 3000, cacheReadTokens: 40_000, cacheWriteTokens: 1000 },
    };
    const parts = renderRunResult(result);
    const context = parts.at(-1)!.blocks.at(-1)!;
    expect(context).toEqual({ type: 'context', elements: [{ type: 'mrkdwn', text: '12 steps · 3m 10s · 45.2k tokens · $0.42' }] });
    expect(renderResultMarkdown(result)).toContain('tokens: 1200 in, 3000 out, 40000 cache read, 1000 cache write · about $0.42');
  });

  it('splits a long review over several messages without losing a finding', () => {
    const findings = Array.from({ length: 120 }, (_, i) => ({
      severity: ['Critical', 'Major', 'Minor'][i % 3]!,
      file: `src/module-${i}.js`,
      line: i + 1,
      problem: `Problem number ${i} explained at some length so the review gets long enough to need several messages.`,
      suggestedFix: `Fix number ${i}: do the right thing instead.`,
    }));
    const sections = reviewSections({ summary: 'Many findings.', findings, focusAreas: [] }, ['Critical', 'Major', 'Minor']);
    const parts = renderRunResult({ ...base, headline: ':mag: Review', answer: 'Many findings.', sections });
    expect(parts.length).toBeGreaterThan(1);
    const text = parts.map((p) => p.blocks.map((b) => (b.type === 'section' && b.text ? b.text.text : '')).join('\n')).join('\n');
    for (let i = 0; i < findings.length; i += 1) expect(text).toContain(`\`src/module-${i}.js:${i + 1}\``);
    for (const part of parts) for (const block of part.blocks) if (block.type === 'section') expect(block.text!.text.length).toBeLessThanOrEqual(3000);
  });

  it('names the files shared with a result', () => {
    expect(attachmentsComment({ ...base, attachments: [{ filename: 'report.md', kind: 'text', content: Buffer.from('x') }] })).toBe(
      ':paperclip: Files from this run: `report.md`',
    );
  });
});

describe("the report when Wrench's checks contradict the agent", () => {
  const agentSays: RunResult = {
    ...base,
    status: 'pr_opened',
    report: { summary: 'Fixed the rounding. All tests pass.', filesChanged: [], verification: 'npm test: all tests pass', openQuestions: [] },
    verification: 'Regressed: `test/cart.test.js` passed before this change and fails after it.',
    verificationVerdict: 'regressed',
  };

  it('quotes the contradicted claims as claims, each next to the measurement that contradicts them', () => {
    const measured: RunResult = { ...agentSays, measuredTests: { command: 'npm test', failed: true, counts: '3 passed, 1 failed' } };
    for (const text of [renderResultMarkdown(measured), renderResultMarkdown(measured, { forPullRequest: true })]) {
      expect(text).toMatch(/Summary \(the agent's claim, contradicted by Wrench's checks\)/);
      expect(text).toContain('> Fixed the rounding. All tests pass.\n\nMeasured by Wrench: `npm test` failed after the change (3 passed, 1 failed).');
      expect(text).toContain('> npm test: all tests pass\n\nMeasured by Wrench: `npm test` failed after the change');
      expect(text).not.toMatch(/^Fixed the rounding/m);
    }
  });

  it('marks the claims as contradicted when the checks failed before and after (unchanged), not only when they regressed', () => {
    const text = renderResultMarkdown({
      ...agentSays,
      verification: 'Checks run by Wrench on the base commit and after the change: **same as before**.\n- `npm test`: same as before: failed (exit code 1).',
      verificationVerdict: 'unchanged',
      measuredTests: { command: 'npm test', failed: true },
    });
    expect(text.split('\n')[0]).toBe('Outcome: `npm test` fails after the change, as it did before.');
    expect(text).toMatch(/contradicted by Wrench's checks/);
    expect(text).not.toMatch(/\*\*Summary\*\*\nFixed/);
  });

  it("marks the summary as the agent's account when the checks agree, and drops its checks when they only repeat Wrench's", () => {
    const text = renderResultMarkdown({
      ...agentSays,
      report: { ...agentSays.report!, verification: 'npm test: all tests pass' },
      verification: 'All 12 tests pass, as before.',
      verificationVerdict: 'unchanged',
      measuredTests: { command: 'npm test', failed: false, counts: '12 passed, 0 failed' },
    });
    expect(text.indexOf('Outcome: `npm test` passes')).toBe(0);
    expect(text.indexOf('Fixed the rounding')).toBeLessThan(text.indexOf('All 12 tests pass'));
    expect(text).toMatch(/\*\*Summary \(the agent's account\)\*\*\n> Fixed the rounding\. All tests pass\./);
    expect(text).not.toContain('npm test: all tests pass');
    expect(text).not.toMatch(/contradicted/);
  });

  it("lists changes from the committed diff with +/- counts, the agent's words attached, and claimed files the diff lacks", () => {
    const text = renderResultMarkdown({
      ...agentSays,
      report: {
        ...agentSays.report!,
        filesChanged: [
          { path: 'src/parser.js', change: 'handle empty input' },
          { path: 'README.md', change: 'document it' },
        ],
      },
      filesChanged: ['README.md', 'docs/usage.md'],
      diffStat: [
        { path: 'README.md', added: 3, removed: 1 },
        { path: 'docs/usage.md', added: 2, removed: 0 },
      ],
    });
    expect(text).toContain('**Changes (from the committed diff)**\n- `README.md` (+3 −1): the agent says: document it\n- `docs/usage.md` (+2 −0)\n');
    expect(text).toContain('**Claimed by the agent, not changed**\n- `src/parser.js`: claimed, not changed (the agent said: handle empty input)');
    expect(text).not.toMatch(/^- `src\/parser\.js`: handle/m);
  });
});
