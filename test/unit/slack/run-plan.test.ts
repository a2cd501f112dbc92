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

  it("shows the agent's own plan as its account: by position, done as complete, dropped or unfinished steps not under way at the end", () => {
    const plan = new RunPlan('acme/web');
    plan.advance('working');
    plan.takeChanges();
    plan.agentPlan([
      { step: 'Find the parser', status: 'done' },
      { step: 'Fix the off-by-one', status: 'in_progress' },
      { step: 'Add a test', status: 'pending' },
    ]);
    expect(plan.takeChanges()).toEqual([
      { type: 'task_update', id: 'agent-1', title: "Find the parser (the agent's plan)", status: 'complete' },
      { type: 'task_update', id: 'agent-2', title: "Fix the off-by-one (the agent's plan)", status: 'in_progress' },
      { type: 'task_update', id: 'agent-3', title: "Add a test (the agent's plan)", status: 'pending' },
    ]);
    plan.agentPlan([
      { step: 'Find the parser', status: 'done' },
      { step: 'Fix the off-by-one', status: 'in_progress' },
    ]);
    expect(plan.takeChanges()).toEqual([
      { type: 'task_update', id: 'agent-3', title: "Add a test (the agent's plan)", status: 'pending', output: "dropped from the agent's plan" },
    ]);
    plan.advance('done');
    expect(plan.takeChanges()).toContainEqual({
      type: 'task_update',
      id: 'agent-2',
      title: "Fix the off-by-one (the agent's plan)",
      status: 'pending',
      output: 'not marked done by the agent',
    });
    expect(plan.fallbackText()).toContain(":white_check_mark: Find the parser (the agent's plan)");
  });

  it("shows none of the agent's steps as under way in the message of a run paused on its question", () => {
    const plan = new RunPlan('acme/web');
    plan.advance('working');
    plan.agentPlan([{ step: 'Ask about the colour', status: 'in_progress' }]);
    plan.advance('waiting');
    expect(plan.takeChanges()).toContainEqual({
      type: 'task_update',
      id: 'agent-1',
      title: "Ask about the colour (the agent's plan)",
      status: 'pending',
      output: 'not marked done by the agent',
    });
  });

  it('says how to stop the run in the title while it goes on, and not once it is over', () => {
    const plan = new RunPlan('acme/web', undefined, 'Bug fix · simple: the parser');
    plan.advance('queued', 'position 2 in the queue');
    expect(plan.takeChanges()).toEqual([
      { type: 'plan_update', title: 'Queued: position 2 in the queue · to stop it, mention me with "stop"' },
      { type: 'task_update', id: 'reading', title: 'Read the request', status: 'complete', output: 'Bug fix · simple: the parser' },
    ]);
    plan.advance('working');
    expect(plan.takeChanges()[0]).toEqual({ type: 'plan_update', title: 'Working on acme/web · to stop it, mention me with "stop"' });
    plan.advance('cancelled');
    expect(plan.takeChanges()[0]).toEqual({ type: 'plan_update', title: 'Cancelled: acme/web' });
  });
});
