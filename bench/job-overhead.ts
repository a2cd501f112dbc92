/**
 * Overhead per job outside the model, through a running Wrench (built: npm run build) with the Slack, Anthropic and
 * GitHub fakes and a real Redis, on a warm tree (a first job readies it, not counted):
 *   - mention → first model request: from the signed event's delivery to the agent's first request to the model;
 *   - last model response → thread reply: from the agent's last request (answered at once by the scripted model with
 *     `finish_task`) to the reply naming the pull request (verification, commit, scan, push, pull request, reply);
 *   - a follow-up in the same thread, both figures again.
 * Each job changes one file in a repository without tests, so the time is Wrench's own. Jobs run one after another,
 * each once the previous tree is back in the pool (the patient case of bench/warm-start.ts).
 *
 * --back-to-back: the black-box case of issue 31 instead. Repository (a) of bench/warm-start.ts (npm dependencies and a
 * vitest suite, so every job installs or restores dependencies and runs the checks), and each message is sent the
 * instant the previous reply is posted, while that tree is still being readied; a first job (cold, not counted) comes
 * before. Beside it the same preparation by hand: git clone + npm install (an empty npm cache) + vitest run, from the
 * same GitHub fake, and the ratio of the two.
 *   npx tsx bench/job-overhead.ts [JOBS=8] [--back-to-back]     Prints p50/p95 per figure and the baseline; asserts nothing.
 */
import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { createE2eWorld, SIGNING_SECRET } from '../test/e2e/e2e-world.js';
import { createFileStep, finishStep, scriptByRun } from '../test/e2e/scripted-runs.js';
import { appMentionEnvelope } from '../test/fakes/slack-fake.js';
import { Redis } from 'ioredis';
import { checkSandbox } from '../src/sandbox/check-sandbox.js';
import { nodeRepositoryFiles } from './bench-repositories.js';

const args = process.argv.slice(2);
const BACK_TO_BACK = args.includes('--back-to-back');
const JOBS = Math.max(2, Number(args.find((a) => /^\d+$/.test(a)) ?? 8));
/** Measured 2026-11-24 before this bench existed (issue 31), for comparison. */
const BASELINE = { toModel: 450, toReply: 1150, followUpReply: 2400 };

const sandbox = (await checkSandbox()).ok ? 'bwrap' : 'none';
const world = await createE2eWorld(`channels:\n  C0DEV: { repo: acme/app }\nsandbox: { mode: ${sandbox} }\n`);
const runs: Record<string, ReturnType<typeof finishStep>[]> = {};
for (let i = 0; i <= JOBS; i++) {
  runs[`module number ${i} `] = [createFileStep(`src/m${i}.js`, `export const m${i} = ${i};\n`), finishStep(`Added module ${i}.`)];
  runs[`follow-up number ${i} `] = [createFileStep(`src/f${i}.js`, `export const f${i} = ${i};\n`), finishStep(`Added follow-up ${i}.`)];
}
const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

async function treesBackInPool(): Promise<void> {
  const root = path.join(world.env.WRENCH_DATA_DIR!, 'trees');
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
    const pools = await readdir(root).catch(() => [] as string[]);
    const states = await Promise.all(
      pools.flatMap((pool) => [0, 1, 2].map((i) => readFile(path.join(root, pool, `${i}.json`), 'utf8').then(JSON.parse, () => undefined))),
    );
    const known = states.filter(Boolean) as Array<{ released?: boolean }>;
    const busy = await readdir(root, { recursive: true }).then((names) => names.some((n) => String(n).endsWith('.readying')));
    // Patient: the tree back in the pool, its refresh and the job's other work after the reply (a follow-up's note on
    // its pull request) done: nothing asked of GitHub for longer than its one second between writes.
    const lastRequest = world.github.requests.at(-1)?.at ?? 0;
    if (known.length > 0 && known.every((s) => s.released) && !busy && Date.now() - lastRequest > 1100) return;
  }
  throw new Error('the working tree did not come back to the pool');
}

/** One message (a mention, or a follow-up in `threadTs`) to its reply: [mention → first model request, last model request → reply]. */
async function job(marker: string, threadTs?: string): Promise<[number, number, string]> {
  const text = `<@U0BOT> add a module: ${marker} in src exporting a constant.`;
  const envelope = appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text, ...(threadTs ? { thread_ts: threadTs } : {}) });
  const thread = threadTs ?? (envelope.event as { ts: string }).ts;
  const models = world.anthropic.requests.length;
  const calls = world.slack.calls.length;
  const sent = Date.now();
  await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
  const reply = await world.slack.waitFor(
    (c) => world.slack.calls.indexOf(c) >= calls && c.method === 'chat.postMessage' && c.args.thread_ts === thread && /PR #\d+/.test(String(c.args.text)),
    120_000,
  );
  const mine = world.anthropic.requests.slice(models);
  if (process.env.BENCH_TRACE) {
    // What the fakes saw from the message to the reply, in order: where the time outside the model went.
    const seen = [
      ...mine.map((r) => ({ at: r.at, what: 'model request' })),
      ...world.github.requests
        .filter((r) => r.at >= sent && r.at <= reply.at)
        .map((r) => ({ at: r.at, what: `github ${r.method} ${r.path} ${(r.body as { command?: string })?.command ?? ''}` })),
      ...world.slack.calls
        .slice(calls)
        .filter((c) => c.at <= reply.at)
        .map((c) => ({ at: c.at, what: `slack ${c.method}` })),
    ];
    const redis = new Redis(world.redis.url);
    for (const key of await redis.keys(`${world.env.WRENCH_QUEUE_PREFIX}:runlog:*`)) {
      const summary = await redis.get(key).catch(() => null);
      if (!summary?.includes(marker)) continue;
      for (const entry of (await redis.lrange(`${key}:entries`, 0, -1)).map(
        (e) => JSON.parse(e) as { kind: string; at: number; phase?: string; detail?: string; name?: string },
      )) {
        if (entry.kind === 'phase' || entry.kind === 'tool')
          seen.push({ at: entry.at, what: `run ${entry.kind} ${entry.phase ?? entry.name} ${entry.detail ?? ''}` });
      }
    }
    redis.disconnect();
    for (const line of world.wrench!.output().split('\n')) {
      if (!line.startsWith('{')) continue;
      const entry = JSON.parse(line) as { time: number; msg: string; component?: string };
      if (entry.time >= sent && entry.time <= reply.at && entry.component !== 'bolt') seen.push({ at: entry.time, what: `log ${entry.msg}` });
    }
    seen.sort((a, b) => a.at - b.at);
    console.log(`-- ${marker}`);
    for (const event of seen) console.log(`${String(event.at - sent).padStart(6)} ms  ${event.what}`);
  }
  if (!BACK_TO_BACK) await treesBackInPool();
  return [mine[0]!.at - sent, reply.at - mine[mine.length - 1]!.at, thread];
}

/** git clone + npm install with an empty npm cache + vitest run, as a person would prepare the same tree. */
async function byHand(): Promise<number> {
  const dir = path.join(world.dir.path, 'by-hand');
  const home = path.join(world.dir.path, 'by-hand-home');
  await mkdir(home, { recursive: true });
  const started = Date.now();
  await promisify(execFile)(
    'bash',
    [
      '-c',
      `git clone --quiet ${world.github.cloneUrl('acme', 'app')} ${dir} && cd ${dir} && npm install --no-audit --no-fund --loglevel=error && npx vitest run >/dev/null`,
    ],
    { env: { ...process.env, HOME: home, npm_config_cache: path.join(home, '.npm') }, maxBuffer: 64 * 1024 * 1024 },
  );
  return Date.now() - started;
}

try {
  await world.github.createRepo('acme', 'app', BACK_TO_BACK ? nodeRepositoryFiles() : { 'README.md': '# app\n', 'src/index.js': 'export const a = 1;\n' });
  await world.start({ WRENCH_LOG_LEVEL: process.env.BENCH_LOG ?? 'warn' });
  world.anthropic.setScript(scriptByRun(runs).items);
  await job('module number 0 ');
  const toModel: number[] = [];
  const toReply: number[] = [];
  const followToModel: number[] = [];
  const followToReply: number[] = [];
  for (let i = 1; i <= JOBS; i++) {
    const [a, b, thread] = await job(`module number ${i} `);
    toModel.push(a);
    toReply.push(b);
    const [c, d] = await job(`follow-up number ${i} `, thread);
    followToModel.push(c);
    followToReply.push(d);
  }
  const row = (name: string, values: number[], baseline?: number) =>
    console.log(
      `${name.padEnd(44)} p50 ${String(pct(values, 50)).padStart(5)} ms  p95 ${String(pct(values, 95)).padStart(5)} ms   baseline p50 ${baseline ?? '–'} ms`,
    );
  console.log(
    BACK_TO_BACK
      ? `${JOBS} new threads and ${JOBS} follow-ups, each sent the instant the previous reply was posted, repository (a) (npm dependencies, 24 vitest tests), sandbox ${sandbox}`
      : `${JOBS} new threads and ${JOBS} follow-ups on a warm tree, sandbox ${sandbox}, one at a time`,
  );
  row('mention → first model request', toModel, BASELINE.toModel);
  row('last model response → thread reply', toReply, BASELINE.toReply);
  row('follow-up: message → first model request', followToModel);
  row('follow-up: last model response → thread reply', followToReply, BASELINE.followUpReply);
  if (BACK_TO_BACK) {
    const all = [...toModel, ...followToModel];
    const mean = all.reduce((a, b) => a + b, 0) / all.length;
    const hand = await byHand();
    console.log(
      `by hand (git clone + npm install + vitest run): ${hand} ms; back to back, message → first model request, mean ${Math.round(mean)} ms: ${(hand / mean).toFixed(1)}× faster (goal ≥ 10×)`,
    );
  }
} finally {
  await world.stop();
}
