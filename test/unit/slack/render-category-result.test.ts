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
    expect(renderRunResult({ ...base, answer: 'a < b & c' })[0].text).toContain('a &lt; b &amp; c');
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

  it('shows what Wrench verified first and quotes the contradicted claims instead of stating them', () => {
    for (const text of [renderResultMarkdown(agentSays), renderResultMarkdown(agentSays, { forPullRequest: true })]) {
      expect(text.indexOf('Regressed:')).toBeLessThan(text.indexOf('All tests pass'));
      expect(text).not.toMatch(/Summary/);
      expect(text).toMatch(/contradicted by the checks above/);
      expect(text).toContain('> Fixed the rounding. All tests pass.');
      expect(text).toContain('> npm test: all tests pass');
      expect(text).not.toMatch(/^Fixed the rounding/m);
    }
  });

  it('keeps the summary as the summary when the checks agree', () => {
    const text = renderResultMarkdown({ ...agentSays, verification: 'All 12 tests pass, as before.', verificationVerdict: 'unchanged' });
    expect(text.indexOf('All 12 tests pass')).toBeLessThan(text.indexOf('Fixed the rounding'));
    expect(text).toMatch(/\*\*Summary\*\*\nFixed the rounding\. All tests pass\./);
  });
});
