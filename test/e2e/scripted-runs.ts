import type { AssistantReply, RecordedRequest, ScriptItem } from '../fakes/anthropic-fake.js';
import { toolUseResponse } from '../fakes/anthropic-fake.js';

/**
 * A script that answers each run by its instruction, whatever order requests arrive in: the run is
 * recognised by a marker inside its <instruction>, the step by the number of assistant turns so far.
 * `trace` records (marker, step) per request, so tests can check that runs never interleaved. There are enough
 * responders for every step of every run, however many runs (a fixed 200 ran out at job 15 of redis-per-job 20 --steps=11).
 */
export function scriptByRun(runs: Record<string, Array<AssistantReply & { delayMs?: number }>>, trace: Array<{ run: string; step: number }> = []) {
  const responder = (request: RecordedRequest) => {
    const body = request.body as { messages: Array<{ role: string; content: unknown }> };
    const first = JSON.stringify(body.messages[0]?.content ?? '');
    const instruction = /<instruction>([\s\S]*?)<\/instruction>/.exec(first.replace(/\\n/g, '\n'))?.[1] ?? first;
    const run = Object.keys(runs).find((marker) => instruction.includes(marker));
    if (!run) throw new Error(`no scripted run matches: ${instruction.slice(0, 200)}`);
    const step = body.messages.filter((m) => m.role === 'assistant').length;
    trace.push({ run, step });
    const reply = runs[run]![step];
    if (!reply) throw new Error(`run ${run} has no scripted step ${step}`);
    return reply;
  };
  // One responder per scripted step, plus 200 for steps asked again (a retried request, a restarted run).
  const steps = Object.values(runs).reduce((sum, replies) => sum + replies.length, 0);
  const items: ScriptItem[] = Array.from({ length: steps + 200 }, () => responder);
  return { items, trace };
}

export const finishStep = (summary: string) =>
  toolUseResponse([{ name: 'finish_task', input: { summary, verification: 'checked', filesChanged: [], openQuestions: [] } }]);

export const createFileStep = (path: string, content: string) =>
  toolUseResponse([{ name: 'str_replace_based_edit_tool', input: { command: 'create', path, file_text: content } }]);

export const bashStep = (command: string, delayMs?: number) => ({
  ...toolUseResponse([{ name: 'bash', input: { command } }]),
  ...(delayMs ? { delayMs } : {}),
});

/** True when each run's requests are contiguous: no run started before the previous one ended. */
export function runsNeverInterleaved(trace: Array<{ run: string; step: number }>): boolean {
  const order = trace.map((t) => t.run).filter((run, i, all) => i === 0 || all[i - 1] !== run);
  return new Set(order).size === order.length;
}
