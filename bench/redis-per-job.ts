/**
 * Redis cost of a job, through a running Wrench (built: npm run build) with the Slack, Anthropic and GitHub fakes and
 * its own real redis-server: the commands a job sends (INFO commandstats, with what one idle process sends meanwhile
 * taken out) and the memory it leaves behind (INFO memory, and MEMORY USAGE of the keys by kind).
 *
 * Each job is a new thread whose scripted agent runs one command (or --steps=N), writes one file and finishes, so the pull request
 * is opened and the thread answered: the whole path of a mention (intake, dedup, session, outbox, queue, run slots,
 * run record, completion), with the model answering at once. A real run adds per agent step a few commands (the
 * steering inbox before each model call, the run record's entries, status updates through the outbox) and its run
 * record grows with its tool outputs (up to WRENCH_RUN_MAX_KB).
 *   npx tsx bench/redis-per-job.ts [JOBS=10] [--steps=1]     Prints the figures; asserts nothing.
 */
import { Redis } from 'ioredis';
import { checkSandbox } from '../src/sandbox/check-sandbox.js';
import { createE2eWorld, SIGNING_SECRET } from '../test/e2e/e2e-world.js';
import { bashStep, createFileStep, finishStep, scriptByRun } from '../test/e2e/scripted-runs.js';
import { pollFor } from '../test/fakes/shared/wait-for.js';
import { appMentionEnvelope } from '../test/fakes/slack-fake.js';
import { streamText } from '../test/fakes/slack/streams.js';

const args = process.argv.slice(2);
const JOBS = Math.max(1, Number(args.find((a) => /^\d+$/.test(a)) ?? 10));
/** Agent commands per job before it writes its file (--steps N): the difference between two runs is a step's cost. */
const STEPS = Math.max(1, Number(/^--steps=(\d+)$/.exec(args.find((a) => a.startsWith('--steps=')) ?? '')?.[1] ?? 1));
const IDLE_SECONDS = 10;
const sandbox = (await checkSandbox()).ok ? 'bwrap' : 'none';
const world = await createE2eWorld(`channels:\n  C0DEV: { repo: acme/app }\nsandbox: { mode: ${sandbox} }\n`);
await world.github.createRepo('acme', 'app', { 'README.md': '# app\n', 'src/index.js': 'export const app = 1;\n' });
const runs: Record<string, ReturnType<typeof finishStep>[]> = {};
for (let i = 0; i <= JOBS; i++) {
  runs[`job number ${i} `] = [
    ...Array.from({ length: STEPS }, () => bashStep('cat README.md')),
    createFileStep(`src/m${i}.js`, `export const m${i} = ${i};\n`),
    finishStep(`Added module ${i}.`),
  ];
}
const script = scriptByRun(runs);
world.anthropic.setScript(script.items);
await world.start();
const redis = new Redis(world.redis.url);
const prefix = world.env.WRENCH_QUEUE_PREFIX!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function job(i: number): Promise<void> {
  const envelope = appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: `<@U0BOT> job number ${i} : add src/m${i}.js exporting m${i}` });
  const ts = (envelope.event as { ts: string }).ts;
  await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
  // The answer is the run's streamed message once stopped, with the pull request in it (a posted reply where Slack does not stream).
  const answer = () => {
    const streams = world.slack.streamsIn('C0DEV', ts);
    const posted = world.slack.calls.filter((c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts).map((c) => String(c.args.text));
    const last = streams.at(-1);
    const stopped = last?.state === 'stopped' ? streamText(last) : undefined;
    return [stopped ?? '', ...posted].find((text) => text.includes('/pull/')) ?? stopped;
  };
  const text = await pollFor(answer, 120_000, () => `job ${i} not answered: ${world.wrench?.output().split('\n').slice(-20).join('\n')}`);
  // A run that stopped without its pull request (the script ran out, a tool failed) is said at once, not waited out.
  if (!text.includes('/pull/')) throw new Error(`job ${i} answered without a pull request: ${text}`);
}

/** Commands by name since the last CONFIG RESETSTAT, without this bench's own INFO and CONFIG. */
async function commandStats(): Promise<Map<string, number>> {
  const info = await redis.info('commandstats');
  const stats = new Map<string, number>();
  for (const m of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
    if (!['info', 'config'].includes(m[1]!)) stats.set(m[1]!, Number(m[2]));
  }
  return stats;
}
const total = (stats: Map<string, number>) => [...stats.values()].reduce((a, b) => a + b, 0);
const memoryField = async (field: string) => Number(new RegExp(`^${field}:(\\d+)`, 'm').exec(await redis.info('memory'))?.[1]);
const usedMemory = () => memoryField('used_memory');
const datasetMemory = () => memoryField('used_memory_dataset');
/** MEMORY STATS as flat numbers (overhead.hashtable.main, lua.caches, clients.normal, dataset, ...). */
async function memoryStats(): Promise<Map<string, number>> {
  const flat = new Map<string, number>();
  const walk = (reply: unknown, path: string) => {
    if (!Array.isArray(reply)) {
      if (typeof reply === 'number') flat.set(path, reply);
      return;
    }
    for (let i = 0; i + 1 < reply.length; i += 2) walk(reply[i + 1], path ? `${path}.${reply[i]}` : String(reply[i]));
  };
  walk(await redis.call('MEMORY', 'STATS'), '');
  return flat;
}

/** Bytes held by Wrench's keys, grouped by kind (the key with its ids replaced by *). */
async function keysByKind(): Promise<Map<string, { keys: number; bytes: number; lasting: number; type: string }>> {
  const kinds = new Map<string, { keys: number; bytes: number; lasting: number; type: string }>();
  for (const key of await redis.keys(`${prefix}*`)) {
    const segments = key.slice(prefix.length + 1).split(':');
    // Ids (event ids, run ids, timestamps, Slack ids) and branch names become *.
    const kind = (segments[0] === 'pull-branch' ? [...segments.slice(0, 2), '*'] : segments.map((s) => (/\d|^Ev|^run-|\//.test(s) ? '*' : s))).join(':');
    const entry = kinds.get(kind) ?? { keys: 0, bytes: 0, lasting: 0, type: await redis.type(key) };
    entry.keys++;
    if ((await redis.pttl(key)) === -1) entry.lasting++;
    entry.bytes += Number(await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0')) || 0;
    kinds.set(kind, entry);
  }
  return kinds;
}

// A first job readies the tree, the mirror and every connection; not counted.
await job(0);
await sleep(3000);

await redis.config('RESETSTAT');
await sleep(IDLE_SECONDS * 1000);
const idleStats = await commandStats();
const idlePerSecond = total(idleStats) / IDLE_SECONDS;

const keysBefore = await redis.dbsize();
const kindsBefore = await keysByKind();
// Redis 7 keeps a latency histogram (about 24 KiB) of every command name called since the last CONFIG RESETSTAT
// (latency-tracking, on by default), outside the keys: memory is read right after a reset on both sides, so the job
// growth is not the histograms of the commands the jobs used for the first time.
await redis.config('RESETSTAT');
const datasetBefore = await datasetMemory();
const memoryBefore = await usedMemory();
const statsBefore = await memoryStats();
const githubBefore = world.github.requests.filter((r) => !r.path.includes('.git/')).length;
const slackBefore = world.slack.calls.length;
await redis.config('RESETSTAT');
const started = Date.now();
for (let i = 1; i <= JOBS; i++) await job(i);
await sleep(3000);
const seconds = (Date.now() - started) / 1000;
const stats = await commandStats();
const githubPerJob = (world.github.requests.filter((r) => !r.path.includes('.git/')).length - githubBefore) / JOBS;
const slackPerJob = (world.slack.calls.length - slackBefore) / JOBS;
const histograms = [...(await redis.info('latencystats')).matchAll(/^latency_percentiles_usec_/gm)].length;
const datasetWithHistograms = await datasetMemory();
await redis.config('RESETSTAT');
const datasetAfter = await datasetMemory();
const memoryAfter = await usedMemory();
const statsAfter = await memoryStats();
const keysAfter = await redis.dbsize();
const kindsAfter = await keysByKind();

const perJob = (total(stats) - idlePerSecond * seconds) / JOBS;
console.log(
  `redis-per-job bench: ${JOBS} jobs of ${STEPS + 2} agent steps one after another in ${seconds.toFixed(1)} s (${(seconds / JOBS).toFixed(2)} s a job), sandbox ${sandbox}, one \`wrench start\` (web and worker)`,
);
console.log(
  `idle: ${idlePerSecond.toFixed(1)} commands/s from one process with no job: ${[...idleStats]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6)
    .map(([n, c]) => `${n} ${(c / IDLE_SECONDS).toFixed(1)}/s`)
    .join(', ')}`,
);
console.log(`per job: ${perJob.toFixed(0)} commands (${total(stats)} in all, less ${(idlePerSecond * seconds).toFixed(0)} idle)`);
console.log('most sent per job:');
for (const [name, calls] of [...stats].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${name.padEnd(18)} ${(calls / JOBS).toFixed(1)}`);
console.log(
  `memory (latency histograms aside): used_memory ${memoryBefore} -> ${memoryAfter} bytes (${((memoryAfter - memoryBefore) / JOBS / 1024).toFixed(1)} KiB per job); dataset ${datasetBefore} -> ${datasetAfter} (${((datasetAfter - datasetBefore) / JOBS / 1024).toFixed(1)} KiB per job); keys ${keysBefore} -> ${keysAfter}`,
);
console.log(`per job, besides Redis: ${githubPerJob.toFixed(1)} GitHub REST requests, ${slackPerJob.toFixed(1)} Slack Web API calls`);
const bytes = (kinds: Map<string, { bytes: number }>) => [...kinds.values()].reduce((a, b) => a + b.bytes, 0);
console.log(`kept: ${((bytes(kindsAfter) - bytes(kindsBefore)) / JOBS).toFixed(0)} bytes per job in Wrench's keys (MEMORY USAGE)`);
console.log('kept by kind (keys, of them without a TTL, type, bytes after; growth per job):');
for (const [kind, after] of [...kindsAfter].sort((a, b) => b[1].bytes - a[1].bytes)) {
  const before = kindsBefore.get(kind) ?? { keys: 0, bytes: 0 };
  console.log(
    `  ${kind.padEnd(48)} ${String(after.keys).padStart(4)} keys (${after.lasting} no TTL, ${after.type.padEnd(6)}) ${String(after.bytes).padStart(8)} B   +${((after.bytes - before.bytes) / JOBS).toFixed(0)} B/job`,
  );
}
console.log('MEMORY STATS, growth per job (bytes; fields that moved by 100 B/job or more):');
for (const [field, after] of statsAfter) {
  const growth = (after - (statsBefore.get(field) ?? 0)) / JOBS;
  if (Math.abs(growth) >= 100 && !/ratio|percentage/.test(field)) console.log(`  ${field.padEnd(34)} ${growth.toFixed(0).padStart(8)}`);
}
console.log(
  `latency histograms (not keys, freed by CONFIG RESETSTAT): ${histograms} commands' after the jobs, ${datasetWithHistograms - datasetAfter} bytes of the dataset`,
);
console.log(
  `Lua script cache (EVAL, not in the dataset): ${await memoryField('number_of_cached_scripts')} scripts, ${await memoryField('used_memory_scripts_eval')} bytes`,
);
redis.disconnect();
await world.stop();
