/**
 * Mention → first model call on a warm tree (issue 44), stage by stage, through a running Wrench (built: npm run build)
 * with the Slack, Anthropic and GitHub fakes and a real Redis. Streamed runs are on (the default) and the fast model
 * reads each instruction (the Anthropic fake answers the reading at once, so its own time is Wrench's around it: the
 * repository's view, the request). The repository has 20,000 files in 20 commits (`--files N`); a first job readies
 * its tree (cold, not counted), then each job is sent once the previous one's tree is back in the pool (patient).
 *
 * Each job's milestones, in ms after the signed event was delivered, from what the fakes saw and what Wrench logged:
 *   acknowledged   Slack's delivery answered (HTTP 200)
 *   :eyes:         reactions.add reached Slack
 *   reader asked   the reading request reached the model      read      Wrench logged the reading
 *   queued         Wrench logged the run queued              stream    chat.startStream reached Slack
 *   worker         the worker's first Slack call for the run (its reporter's lookups): the job was taken
 *   tree ready     Wrench logged the pooled tree reused      prompt    Wrench logged the repository instructions read
 *   model          the agent's first request reached the model
 * printed as p50/p90 over the jobs, with the step from the milestone before it, beside a plain `git clone` of the same
 * repository from the same GitHub fake (median of 5).
 *
 * --slack-ms N: every Slack Web API call answers after N ms (a round trip to slack.com; default 0, at once).
 * --before DIR: the same jobs, first through DIR's build (DIR/dist/bin/wrench.js: a checkout of the code before a
 *   change, built), in a world of its own, then through this checkout's: printed side by side.
 *   npx tsx bench/first-model-call.ts [JOBS=8] [--files 20000] [--slack-ms 0] [--before DIR]   Prints figures; asserts nothing.
 */
import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { textResponse, type RecordedRequest, type ScriptItem } from '../test/fakes/anthropic-fake.js';
import { appMentionEnvelope } from '../test/fakes/slack-fake.js';
import { createE2eWorld, SIGNING_SECRET, type E2eWorld } from '../test/e2e/e2e-world.js';
import { createFileStep, finishStep, scriptByRun } from '../test/e2e/scripted-runs.js';
import { finalWord } from '../test/e2e/thread-replies.js';
import { checkSandbox } from '../src/sandbox/check-sandbox.js';
import { writeLargeRepository } from './bench-repositories.js';

const exec = promisify(execFile);
const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const JOBS = Math.max(2, Number(args.find((a, i) => /^\d+$/.test(a) && !args[i - 1]?.startsWith('--')) ?? 8));
const FILES = Number(option('--files') ?? 20_000);
const SLACK_MS = Number(option('--slack-ms') ?? 0);
const BEFORE = option('--before');
const READER_MODEL = 'claude-haiku-bench';
const gitEnv = { GIT_AUTHOR_NAME: 'Bench', GIT_AUTHOR_EMAIL: 'bench@example.com', GIT_COMMITTER_NAME: 'Bench', GIT_COMMITTER_EMAIL: 'bench@example.com' };

const MILESTONES = ['acknowledged', ':eyes:', 'reader asked', 'read', 'queued', 'stream', 'worker', 'tree ready', 'prompt', 'model'] as const;
type Milestone = (typeof MILESTONES)[number];
type Marks = Partial<Record<Milestone, number>>;

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;
};
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** The reading the fast model gives every instruction here: a clear, simple feature. */
const reading = textResponse(
  JSON.stringify({
    category: 'feature',
    complexity: 'simple',
    verdict: 'well-formed',
    missing: [],
    summary: 'Add a module exporting a constant.',
    language: 'en',
    questions: [],
    elements: { task: 'Add a module exporting a constant.' },
  }),
);

function script(jobs: number): ScriptItem[] {
  const runs: Record<string, ReturnType<typeof finishStep>[]> = {};
  for (let i = 0; i <= jobs; i++)
    runs[`module number ${i} `] = [createFileStep(`src/m${i}.js`, `export const m${i} = ${i};\n`), finishStep(`Added module ${i}.`)];
  const agent = scriptByRun(runs).items;
  let next = 0;
  const responder = (request: RecordedRequest) => {
    if ((request.body as { model?: string }).model === READER_MODEL) return reading;
    const item = agent[next++]!;
    return typeof item === 'function' ? item(request) : item;
  };
  return Array.from({ length: agent.length * 2 }, () => responder as ScriptItem);
}

async function treesBackInPool(world: E2eWorld): Promise<void> {
  const root = path.join(world.env.WRENCH_DATA_DIR!, 'trees');
  let idleSince = Date.now();
  for (const deadline = Date.now() + 120_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
    const pools = await readdir(root).catch(() => [] as string[]);
    const states = await Promise.all(
      pools.flatMap((pool) => [0, 1, 2].map((i) => readFile(path.join(root, pool, `${i}.json`), 'utf8').then(JSON.parse, () => undefined))),
    );
    const known = states.filter(Boolean) as Array<{ released?: boolean }>;
    // The marker of a tree being readied lies next to it, in its pool's folder.
    const markers = await Promise.all(pools.map((pool) => readdir(path.join(root, pool)).catch(() => [] as string[])));
    const busy = markers.flat().some((name) => name.endsWith('.readying'));
    const lastRequest = world.github.requests.at(-1)?.at ?? 0;
    // Patient: nothing left of the previous job's work after its reply (the refresh ahead runs git, a child process).
    const pid = world.wrench!.child.pid;
    const children = (await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '')).trim();
    if (children) idleSince = Date.now();
    if (known.length > 0 && known.every((s) => s.released) && !busy && Date.now() - idleSince > 500 && Date.now() - lastRequest > 1100) return;
  }
  throw new Error('the working tree did not come back to the pool');
}

/** What Wrench logged since `from` (one JSON object a line), by message. */
function logged(world: E2eWorld, from: number): Array<{ time: number; msg: string }> {
  return world
    .wrench!.output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { time: number; msg: string })
    .filter((entry) => entry.time >= from);
}

async function job(world: E2eWorld, n: number): Promise<Marks> {
  const text = `<@U0BOT> add a module: module number ${n} in src exporting a constant.`;
  const envelope = appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text });
  const thread = (envelope.event as { ts: string }).ts;
  const models = world.anthropic.requests.length;
  const calls = world.slack.calls.length;
  const sent = Date.now();
  await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
  const acknowledged = Date.now();
  for (const deadline = Date.now() + 120_000; !finalWord(world, 'C0DEV', thread); await new Promise((r) => setTimeout(r, 25)))
    if (Date.now() > deadline) throw new Error(`job ${n} got no reply`);
  const requests = world.anthropic.requests.slice(models);
  const slack = world.slack.calls.slice(calls).filter((c) => c.args.thread_ts === thread || c.args.timestamp === thread || c.args.message_ts === thread);
  const logs = logged(world, sent);
  const first = (found: { at?: number; time?: number } | undefined) => (found ? (found.at ?? found.time)! - sent : undefined);
  const marks: Marks = {
    acknowledged: acknowledged - sent,
    ':eyes:': first(slack.find((c) => c.method === 'reactions.add')),
    'reader asked': first(requests.find((r) => (r.body as { model?: string }).model === READER_MODEL)),
    read: first(logs.find((e) => /^instruction read by the model/.test(e.msg))),
    queued: first(logs.find((e) => e.msg === 'task queued')),
    stream: first(slack.find((c) => c.method === 'chat.startStream')),
    worker: first(slack.find((c) => c.method === 'chat.getPermalink')),
    'tree ready': first(logs.find((e) => e.msg === 'working tree reused from the pool')),
    prompt: first(logs.find((e) => e.msg === 'repository instructions read')),
    model: first(requests.find((r) => (r.body as { model?: string }).model !== READER_MODEL)),
  };
  if (process.env.BENCH_TRACE) {
    // Everything seen from the mention to the first model call, in order: where the time went.
    const until = sent + (marks.model ?? 0);
    const seen = [
      ...logs.filter((e) => e.time <= until).map((e) => ({ at: e.time, what: `log ${e.msg}` })),
      ...slack.filter((c) => c.at <= until).map((c) => ({ at: c.at, what: `slack ${c.method}` })),
      ...world.github.requests.filter((r) => r.at >= sent && r.at <= until).map((r) => ({ at: r.at, what: `github ${r.method} ${r.path}` })),
    ].sort((a, b) => a.at - b.at);
    console.log(`-- job ${n}`);
    for (const event of seen) console.log(`${String(event.at - sent).padStart(6)} ms  ${event.what}`);
  }
  await treesBackInPool(world);
  return marks;
}

/** A plain `git clone` of the repository from the GitHub fake, `times` times: the median. */
async function plainClone(world: E2eWorld, times = 5): Promise<number> {
  const took: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = Date.now();
    await exec('git', ['clone', '--quiet', world.github.cloneUrl('acme', 'large'), path.join(world.dir.path, `by-hand-${i}`)]);
    took.push(Date.now() - started);
  }
  return median(took);
}

interface Measured {
  label: string;
  jobs: Marks[];
  clone: number;
  load: number[];
}

async function measure(label: string, bin: string | undefined): Promise<Measured> {
  const sandbox = (await checkSandbox()).ok ? 'bwrap' : 'none';
  const world = await createE2eWorld(`channels:\n  C0DEV: { repo: acme/large }\nsandbox: { mode: ${sandbox} }\n`);
  try {
    const work = path.join(world.dir.path, 'gen-large');
    await mkdir(work, { recursive: true });
    await writeLargeRepository(work, FILES);
    await world.github.createRepo('acme', 'large', { 'README.md': 'placeholder\n' });
    await exec('git', ['push', '--quiet', '--force', world.github.gitDir('acme', 'large'), 'HEAD:refs/heads/main'], {
      cwd: work,
      env: { ...process.env, ...gitEnv },
    });
    await world.start({ WRENCH_LOG_LEVEL: 'info', WRENCH_READER_MODEL: READER_MODEL, WRENCH_READER_TIMEOUT_MS: '10000' }, bin);
    world.anthropic.setScript(script(JOBS));
    world.slack.setLatency(SLACK_MS);
    await job(world, 0);
    const jobs: Marks[] = [];
    const load: number[] = [];
    for (let n = 1; n <= JOBS; n++) {
      load.push(loadavg()[0]!);
      const marks = await job(world, n);
      jobs.push(marks);
      console.log(`  ${label} job ${n}: ${MILESTONES.map((m) => `${m} ${marks[m] ?? '–'}`).join(', ')} ms`);
    }
    return { label, jobs, clone: await plainClone(world), load };
  } finally {
    await world.stop();
  }
}

const runs: Measured[] = [];
console.log(
  `first-model-call bench: ${JOBS} jobs a build, ${FILES} files, Slack answering after ${SLACK_MS} ms, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
if (BEFORE) runs.push(await measure('before', path.join(path.resolve(BEFORE), 'dist/bin/wrench.js')));
runs.push(await measure(BEFORE ? 'after' : 'this build', undefined));

const cell = (values: number[]) => (values.length ? `${pct(values, 50)} / ${pct(values, 90)}` : '–');
console.log(`\nms after the mention, p50 / p90 over ${JOBS} jobs (step: from the milestone before it)\n`);
console.log(`| milestone | ${runs.map((r) => `${r.label}: at | ${r.label}: step`).join(' | ')} |`);
console.log(`| --- | ${runs.map(() => '--- | ---').join(' | ')} |`);
MILESTONES.forEach((milestone, i) => {
  const row = runs.map((run) => {
    const at = run.jobs.map((m) => m[milestone]).filter((v): v is number => v !== undefined);
    const previous = MILESTONES[i - 1];
    const step = previous ? run.jobs.flatMap((m) => (m[milestone] !== undefined && m[previous] !== undefined ? [m[milestone]! - m[previous]!] : [])) : at;
    return `${cell(at)} | ${cell(step)}`;
  });
  console.log(`| ${milestone} | ${row.join(' | ')} |`);
});
for (const run of runs) {
  const model = run.jobs.map((m) => m.model!).filter((v) => v !== undefined);
  const p50 = pct(model, 50);
  console.log(
    `${run.label}: mention → first model call p50 ${p50} ms (goal ≤ 300 ms: ${p50 <= 300 ? 'met' : 'NOT met'}); plain git clone ${run.clone} ms (median of 5): ${(run.clone / p50).toFixed(1)}× (goal ≥ 5×); load average during the jobs ${Math.min(...run.load).toFixed(2)}–${Math.max(...run.load).toFixed(2)}`,
  );
}
