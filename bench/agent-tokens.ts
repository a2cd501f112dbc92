/**
 * bench/agent-tokens: a scripted 40-step trajectory through the fake Messages API, once with Wrench's
 * prompt caching and once without. Prints, side by side, the input-equivalent tokens billed (input +
 * 1.25 x cache writes + 0.1 x cache reads), the largest tool result sent, and the time spent in Wrench's
 * own code per step (total minus model round trips minus tool commands).
 *
 *   npx tsx bench/agent-tokens.ts [steps]
 *
 * Targets: caching at least 5x cheaper; own overhead under 5 ms per step.
 */
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { runAgent } from '../src/agent/agent-loop.js';
import type { AgentTool } from '../src/agent/agent-tool.js';
import { taskReportSchema } from '../src/agent/finish-tool.js';
import { inputEquivalentTokens } from '../src/agent/pricing.js';
import { systemPrompt } from '../src/agent/system-prompt.js';
import { workspaceTools } from '../src/agent/workspace-tools.js';
import { createSandbox } from '../src/sandbox/create-sandbox.js';
import { startAnthropicFake, toolUseResponse, type ScriptItem } from '../test/fakes/anthropic-fake.js';

const STEPS = Number(process.argv[2] ?? 40);

function trajectory(steps: number): ScriptItem[] {
  const items: ScriptItem[] = [];
  for (let i = 0; i < steps - 1; i++) {
    const kind = i % 5;
    const call =
      kind === 0
        ? { name: 'str_replace_based_edit_tool', input: { command: 'view', path: `src/module${i % 8}.ts` } }
        : kind === 1
          ? { name: 'bash', input: { command: 'grep -rn "function" src | head -50' } }
          : kind === 2
            ? { name: 'bash', input: { command: 'seq 1 200000' } }
            : kind === 3
              ? {
                  name: 'str_replace_based_edit_tool',
                  input: { command: 'str_replace', path: `src/module${i % 8}.ts`, old_str: `value${i % 8} = 1`, new_str: `value${i % 8} = 1 // ${i}` },
                }
              : { name: 'bash', input: { command: 'cat src/big.txt' } };
    items.push(toolUseResponse([call], `Step ${i + 1}: looking at the next thing.`));
  }
  items.push(toolUseResponse([{ name: 'finish_task', input: { summary: 'Done.', verification: 'Ran the checks.', filesChanged: [], openQuestions: [] } }]));
  return items;
}

function makeRepo(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'wrench-bench-'));
  mkdirSync(path.join(dir, 'src'));
  for (let m = 0; m < 8; m++) {
    const body = Array.from({ length: 120 }, (_, i) => `export function f${m}_${i}(x: number) { return x + ${i}; }`).join('\n');
    writeFileSync(path.join(dir, 'src', `module${m}.ts`), `export let value${m} = 1;\n${body}\n`);
  }
  writeFileSync(path.join(dir, 'src', 'big.txt'), 'lorem ipsum dolor sit amet '.repeat(4000));
  return dir;
}

interface Measure {
  inputEquivalent: number;
  cacheRead: number;
  cacheWrite: number;
  input: number;
  largestToolResult: number;
  ownMsPerStep: number;
  steps: number;
}

async function measure(caching: boolean): Promise<Measure> {
  const fake = await startAnthropicFake(trajectory(STEPS), { minCacheableTokens: 1024 });
  const repo = makeRepo();
  try {
    const client = new Anthropic({ apiKey: 'bench', baseURL: fake.url, maxRetries: 0 });
    let modelMs = 0;
    const create = client.messages.create.bind(client.messages);
    (client.messages as { create: unknown }).create = async (...args: Parameters<typeof create>) => {
      const t = performance.now();
      try {
        return await create(...args);
      } finally {
        modelMs += performance.now() - t;
      }
    };
    let toolMs = 0;
    const sandbox = createSandbox({ mode: 'none', root: repo });
    const tools: AgentTool[] = workspaceTools({ sandbox, root: repo, readOnly: false, network: false }).map((tool) => ({
      ...tool,
      execute: async (input, context) => {
        const t = performance.now();
        try {
          return await tool.execute(input, context);
        } finally {
          toolMs += performance.now() - t;
        }
      },
    }));
    const started = performance.now();
    const run = await runAgent({
      client,
      model: 'claude-sonnet-5-5',
      system: systemPrompt('feature', { readOnly: false, network: false }),
      task: 'Add a comment next to each value in src/. '.repeat(20),
      tools,
      report: { schema: taskReportSchema, description: 'Finish.' },
      budget: { maxSteps: STEPS + 5, maxMillis: 600_000, maxCostUsd: 1000, maxTokens: 1e9 },
      promptCaching: caching,
    });
    const total = performance.now() - started;
    if (run.outcome !== 'finished') throw new Error(`run ended ${run.outcome}: ${run.stop?.message}`);
    const largestToolResult = Math.max(
      ...fake.requests.flatMap((r) =>
        ((r.body as { messages: Array<{ content: unknown }> }).messages ?? []).flatMap((m) =>
          Array.isArray(m.content)
            ? m.content.filter((b: { type?: string }) => b.type === 'tool_result').map((b: { content?: unknown }) => String(b.content ?? '').length)
            : [],
        ),
      ),
    );
    return {
      inputEquivalent: inputEquivalentTokens(run.usage),
      cacheRead: run.usage.cacheReadTokens,
      cacheWrite: run.usage.cacheWriteTokens,
      input: run.usage.inputTokens,
      largestToolResult,
      ownMsPerStep: (total - modelMs - toolMs) / run.steps,
      steps: run.steps,
    };
  } finally {
    await fake.stop();
    rmSync(repo, { recursive: true, force: true });
  }
}

const withCache = await measure(true);
const without = await measure(false);
const row = (label: string, a: string | number, b: string | number) => console.log(`${label.padEnd(34)}${String(a).padStart(14)}${String(b).padStart(16)}`);
console.log(`bench/agent-tokens: ${STEPS}-step scripted trajectory through the fake Messages API\n`);
row('', 'caching on', 'caching off');
row('steps', withCache.steps, without.steps);
row('input tokens', withCache.input, without.input);
row('cache write tokens', withCache.cacheWrite, without.cacheWrite);
row('cache read tokens', withCache.cacheRead, without.cacheRead);
row('input-equivalent tokens billed', Math.round(withCache.inputEquivalent), Math.round(without.inputEquivalent));
row('largest tool result (chars)', withCache.largestToolResult, without.largestToolResult);
row("Wrench's own time per step (ms)", withCache.ownMsPerStep.toFixed(2), without.ownMsPerStep.toFixed(2));
const ratio = without.inputEquivalent / withCache.inputEquivalent;
console.log(`\ncaching is ${ratio.toFixed(1)}x cheaper in input-equivalent tokens (target >= 5x): ${ratio >= 5 ? 'met' : 'NOT met'}`);
console.log(`own overhead ${withCache.ownMsPerStep.toFixed(2)} ms/step (target < 5 ms): ${withCache.ownMsPerStep < 5 ? 'met' : 'NOT met'}`);
