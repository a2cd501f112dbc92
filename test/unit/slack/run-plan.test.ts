import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../../src/reporting/run-result.js';
import { markdownChunks, RunPlan, streamedResult } from '../../../src/slack/run-plan.js';

const base: RunResult = { status: 'answered', repository: 'acme/web', instruction: 'explain', filesChanged: [], durationMs: 1000, answer: 'It works.' };

describe('run plan', () => {
  it('cuts a long reply into markdown_text chunks within Slack 12,000-character limit, at line ends, losing nothing', () => {
    const text = Array.from({ length: 400 }, (_, i) => `line ${i} ${'x'.repeat(70)}`).join('\n');
    const chunks = markdownChunks(text);
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) expect(chunk.type === 'markdown_text' && chunk.text.length <= 12_000).toBe(true);
    expect(chunks.map((c) => (c.type === 'markdown_text' ? c.text : '')).join('')).toBe(text);
    expect(chunks.slice(0, -1).every((c) => c.type === 'markdown_text' && c.text.endsWith('\n'))).toBe(true);
  });

  it("escapes what could form mentions or links in the model's words, keeps quotes, and caps the reply", () => {
    const reply = streamedResult({ ...base, answer: 'Done <!channel> <@U123> <https://evil.example|click> & more' });
    expect(reply).not.toMatch(/<[!@h]/);
    expect(reply).toContain('&lt;!channel>');
    expect(reply).toContain('&amp; more');
    const long = streamedResult({ ...base, answer: 'y'.repeat(50_000) }, 'https://wrench.example.com/runs/1');
    expect(long.length).toBeLessThanOrEqual(36_000);
    expect(long).toContain('The rest is on the run page.');
  });

  it('shows only what changed since the last chunks taken', () => {
    const plan = new RunPlan('acme/web');
    plan.advance('preparing');
    expect(plan.takeChanges().map((c) => c.type)).toEqual(['plan_update', 'task_update', 'task_update']);
    plan.advance('working', 'reading the code');
    expect(plan.takeChanges()).toEqual([
      { type: 'task_update', id: 'preparing', title: 'Prepare the workspace', status: 'complete' },
      { type: 'task_update', id: 'working', title: 'Work on the change', status: 'in_progress', output: 'reading the code' },
    ]);
    expect(plan.takeChanges()).toEqual([]);
    plan.advance('failed', 'the sandbox could not start');
    expect(plan.takeChanges()).toEqual([
      { type: 'plan_update', title: 'Failed: acme/web' },
      { type: 'task_update', id: 'working', title: 'Work on the change', status: 'error', output: 'the sandbox could not start' },
    ]);
    expect(plan.fallbackText()).toBe(
      '*Failed: acme/web*\n:white_check_mark: Read the request\n:white_check_mark: Prepare the workspace\n:x: Work on the change · the sandbox could not start',
    );
  });
});
