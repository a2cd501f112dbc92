/**
 * Cost of the run record: how long the worker's recorder takes to get N tool calls into a real Redis, and how
 * long the web role takes to read and render a run page at the size cap. Prints figures; asserts nothing.
 * Usage: npx tsx bench/run-record.ts [toolCalls=500]
 */
import { Redis } from 'ioredis';
import pino from 'pino';
import { RunLogStore } from '../src/run-log/run-log-store.js';
import { RunRecorder } from '../src/run-log/run-recorder.js';
import { renderRunPage } from '../src/run-log/render-run-page.js';
import { createRedactor } from '../src/security/redact.js';
import { startRedisServer } from '../test/helpers/redis-server.js';

const calls = Number(process.argv[2] ?? 500);
const redisServer = await startRedisServer();
const redis = new Redis(redisServer.url);
const store = new RunLogStore(redis, 'bench', { retentionDays: 30 });
const redact = createRedactor(['ghp_benchbenchbenchbenchbenchbench1234']);
const output = Array.from({ length: 60 }, (_, i) => `line ${i}: ok ${'x'.repeat(60)}`).join('\n');

async function record(id: string, maxBytes: number): Promise<{ ms: number; perCallUs: number }> {
  const recorder = await RunRecorder.start(
    store,
    redact,
    { id, repository: 'acme/web', instruction: 'bench', category: 'feature', requester: 'U0' },
    { maxBytes },
    pino({ level: 'silent' }),
  );
  const started = performance.now();
  for (let i = 0; i < calls; i++) {
    recorder.agentEvent({ type: 'text', step: i, detail: `Step ${i}: looking at the next file.` });
    recorder.agentEvent({
      type: 'tool_result',
      step: i,
      detail: 'bash',
      call: { id: `t${i}`, name: 'bash', input: { command: `cat src/file${i}.ts` }, output, isError: false },
    });
    recorder.agentEvent({
      type: 'usage',
      step: i,
      detail: 'usage',
      usage: { inputTokens: i * 1000, outputTokens: i * 50, cacheReadTokens: 0, cacheWriteTokens: 0 },
      costUsd: i / 1000,
    });
  }
  const queued = performance.now() - started;
  await recorder.flush();
  const ms = performance.now() - started;
  return { ms, perCallUs: (queued * 1000) / calls };
}

const uncapped = await record('uncapped', 1 << 30);
const capped = await record('capped', 2048 * 1024);
const readStarted = performance.now();
const [summary, entries] = await Promise.all([store.get('capped'), store.entries('capped')]);
const html = renderRunPage(summary!, entries, null);
const readMs = performance.now() - readStarted;

console.log(`tool calls per run: ${calls} (each with a text, a 60-line output and a usage update)`);
console.log(`record, no cap:    ${uncapped.ms.toFixed(0)} ms until all in Redis; ${uncapped.perCallUs.toFixed(0)} µs per call on the agent's path`);
console.log(
  `record, 2 MB cap:  ${capped.ms.toFixed(0)} ms; ${entries.length} entries kept, ${(summary!.bytes / 1024).toFixed(0)} KB, truncated: ${summary!.truncated}`,
);
console.log(`page at the cap:   read + render ${readMs.toFixed(0)} ms, ${(html.length / 1024).toFixed(0)} KB of HTML`);

redis.disconnect();
await redisServer.stop();
