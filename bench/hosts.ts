/**
 * Workers on several hosts (issue 36, part 2): 1, 2 and 3 `wrench start --role worker` processes, each its own
 * WRENCH_DATA_DIR (its own mirrors and pooled trees, as separate machines have) and WRENCH_HOST_ID, on one real Redis,
 * behind one `--role web` process, with the Slack, GitHub and scripted Anthropic fakes (test/fakes). The same fixed mix
 * of jobs each time: JOBS mentions over four repositories of FILES files each (a fixed pseudo-random order), one sent
 * every INTERVAL ms, each run creating one file (verification, push and pull request as in production). Every
 * configuration starts cold (fresh data dirs, fresh Redis). Printed side by side, with host affinity
 * (WRENCH_AFFINITY_MS=2000) and without (0, the baseline: any worker takes any job):
 *   - warm hits: jobs that ran on a worker already holding their repository's mirror (its `job placed` log line);
 *   - throughput: jobs per minute, from the first mention to the last reply;
 *   - p50 / p95 from mention to the reply naming the pull request (or, streamed, the ✅ on the mention that follows it).
 * Network namespaces are not used: a worker in its own namespace (unshare -n) reaches neither the Redis nor the fakes
 * on this machine's loopback without a veth pair or slirp4netns set up as root; separate data dirs and host ids are
 * what makes a worker a host to Wrench (it shares nothing else with the others but Redis).
 *   npm run build && npx tsx bench/hosts.ts [--jobs 24] [--interval 1500] [--files 4000]     Prints figures; asserts nothing.
 * With --burst: the alternating burst of issue 44 instead, 2 hosts only: JOBS (default 24) mentions alternating between
 * two repositories (alpha, beta, alpha, ...), one every INTERVAL ms (default 100: all queued before the first ends).
 */
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg, cpus } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { checkSandbox } from '../src/sandbox/check-sandbox.js';
import { createE2eWorld, SIGNING_SECRET } from '../test/e2e/e2e-world.js';
import { createFileStep, finishStep, scriptByRun } from '../test/e2e/scripted-runs.js';
import { appMentionEnvelope } from '../test/fakes/slack-fake.js';
import { freePort } from '../test/helpers/free-port.js';
import { makeTempDir } from '../test/helpers/temp-dir.js';
import { startWrench, type WrenchProcess } from '../test/helpers/wrench-process.js';

const exec = promisify(execFile);
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const BURST = process.argv.includes('--burst');
const JOBS = arg('jobs', 24);
const INTERVAL = arg('interval', BURST ? 100 : 1500);
const FILES = arg('files', 4000);
const REPOS = BURST ? ['alpha', 'beta'] : ['alpha', 'beta', 'gamma', 'delta'];
const HOST_COUNTS = BURST ? [2] : [1, 2, 3];
const gitEnv = { GIT_AUTHOR_NAME: 'Bench', GIT_AUTHOR_EMAIL: 'bench@example.com', GIT_COMMITTER_NAME: 'Bench', GIT_COMMITTER_EMAIL: 'bench@example.com' };
const sh = (cwd: string, command: string) => exec('sh', ['-c', command], { cwd, env: { ...process.env, ...gitEnv }, maxBuffer: 64 * 1024 * 1024 });

/** The fixed mix: a repository per job, the same every run (a linear congruential sequence from one seed; alternating with --burst). */
const MIX = (() => {
  if (BURST) return Array.from({ length: JOBS }, (_, i) => REPOS[i % REPOS.length]!);
  let x = 7;
  return Array.from({ length: JOBS }, () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return REPOS[(x >>> 16) % REPOS.length]!;
  });
})();

const scratch = await makeTempDir('wrench-bench-hosts-');
const sandbox = (await checkSandbox()).ok ? 'bwrap' : 'none';

/** One working copy per repository, generated once and pushed into each configuration's GitHub fake. */
const sources: Record<string, string> = {};
for (const repo of REPOS) {
  const work = path.join(scratch.path, 'src', repo);
  for (let i = 0; i < FILES; i++) {
    const file = path.join(work, 'lib', `d${i % 40}`, `f${i}.js`);
    if (i % 40 === 0 || i < 40) await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, `export const v${i} = '${repo}-${i}-${'x'.repeat(200)}';\n`);
  }
  await writeFile(path.join(work, 'README.md'), `# ${repo}\n`);
  await sh(work, 'git init --quiet -b main && git add -A && git commit --quiet -m "generated"');
  sources[repo] = work;
}

interface Figures {
  hosts: number;
  affinityMs: number;
  warm: number;
  placed: number;
  /** Jobs given back at least once for a warm host (`heldBackMs` above 0 in their `job placed` line). */
  heldBack: number;
  /** Of those, the ones that still ran cold (the bound passed before the warm host took them). */
  heldBackCold: number;
  perMinute: number;
  p50: number;
  p95: number;
  byHost: string;
}

async function runConfiguration(hostCount: number, affinityMs: number): Promise<Figures> {
  const channels = REPOS.map((repo, i) => `  C0R${i}: { repo: bench/${repo} }`).join('\n');
  const world = await createE2eWorld(`channels:\n${channels}\nsandbox: { mode: ${sandbox} }\nlimits: { concurrency: 1, perRepository: 10, perUser: 100 }\n`);
  const workers: WrenchProcess[] = [];
  try {
    for (const repo of REPOS) {
      await world.github.createRepo('bench', repo, { 'README.md': 'placeholder\n' });
      await sh(sources[repo]!, `git push --quiet --force ${world.github.gitDir('bench', repo)} HEAD:refs/heads/main`);
    }
    const script = scriptByRun(
      Object.fromEntries(
        MIX.map((repo, i) => [`job number ${i} `, [createFileStep(`src/job${i}.js`, `export const j${i} = ${i};\n`), finishStep(`job ${i} on ${repo}`)]]),
      ),
    );
    world.anthropic.setScript(script.items);
    world.wrench = await startWrench({ ...world.env }, ['start', '--role', 'web']);
    for (let h = 0; h < hostCount; h++) {
      workers.push(
        await startWrench(
          {
            ...world.env,
            PORT: String(await freePort()),
            WRENCH_DATA_DIR: path.join(world.dir.path, `host-${h}`),
            WRENCH_HOST_ID: `host-${h}`,
            WRENCH_AFFINITY_MS: String(affinityMs),
          },
          ['start', '--role', 'worker'],
        ),
      );
    }
    const sent: Array<{ ts: string; channel: string; at: number; jobId: string }> = [];
    // Replies are watched from the first mention on, so each is timed when it is posted.
    const replied = new Map<string, number>();
    const watch = setInterval(() => {
      // The reply naming the pull request: a message in the thread, or (streamed) the ✅ on the mention that follows it.
      for (const call of world.slack.callsTo('chat.postMessage')) {
        const ts = String(call.args.thread_ts ?? '');
        if (!replied.has(ts) && /PR #\d+/.test(String(call.args.text)) && sent.some((s) => s.ts === ts)) replied.set(ts, Date.now());
      }
      for (const call of world.slack.callsTo('reactions.add')) {
        const ts = String(call.args.timestamp ?? '');
        if (!replied.has(ts) && call.args.name === 'white_check_mark' && sent.some((s) => s.ts === ts)) replied.set(ts, Date.now());
      }
    }, 50);
    const start = Date.now();
    for (let i = 0; i < JOBS; i++) {
      const channel = `C0R${REPOS.indexOf(MIX[i]!)}`;
      const envelope = appMentionEnvelope({ channel, user: 'U0BENCH', text: `<@U0BOT> job number ${i} : add src/job${i}.js` });
      const at = Date.now();
      await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
      sent.push({ ts: (envelope.event as { ts: string }).ts, channel, at, jobId: `run-${String(envelope.event_id).replace(/[^A-Za-z0-9_.-]/g, '_')}` });
      const next = start + (i + 1) * INTERVAL;
      if (i < JOBS - 1) await new Promise((r) => setTimeout(r, Math.max(0, next - Date.now())));
    }
    const deadline = Date.now() + arg('timeout-minutes', 10) * 60_000;
    while (replied.size < JOBS) {
      if (Date.now() > deadline) {
        for (const process of [world.wrench, ...workers]) console.error(process?.output().split('\n').slice(-25).join('\n'));
        throw new Error(`only ${replied.size} of ${JOBS} jobs answered`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    clearInterval(watch);
    const latencies = sent.map((s) => replied.get(s.ts)! - s.at).sort((a, b) => a - b);
    const end = Math.max(...replied.values());
    let warm = 0;
    let placed = 0;
    let heldBack = 0;
    let heldBackCold = 0;
    const byHost = workers.map((w) => {
      const lines = w
        .output()
        .split('\n')
        .filter((line) => line.includes('"job placed"') || line.includes('"msg":"job placed"'));
      for (const line of lines) {
        placed++;
        const entry = JSON.parse(line) as { warm: boolean; heldBackMs: number };
        if (entry.warm) warm++;
        if (entry.heldBackMs > 0) heldBack++;
        if (entry.heldBackMs > 0 && !entry.warm) heldBackCold++;
      }
      return lines.length;
    });
    return {
      hosts: hostCount,
      affinityMs,
      warm,
      placed,
      heldBack,
      heldBackCold,
      perMinute: (JOBS / (end - start)) * 60_000,
      p50: latencies[Math.floor(latencies.length * 0.5)]!,
      p95: latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.95))]!,
      byHost: byHost.join('/'),
    };
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
    await world.stop();
  }
}

const load = loadavg()[0]!.toFixed(2);
console.log(`${new Date().toISOString()} · ${cpus().length} cores · load ${load} · sandbox ${sandbox}`);
console.log(
  `${JOBS} jobs over ${REPOS.length} repositories of ${FILES} files (mix ${MIX.map((r) => r[0]).join('')}), one every ${INTERVAL} ms, concurrency 1 per worker`,
);
const results: Figures[] = [];
for (const hosts of HOST_COUNTS) {
  for (const affinityMs of hosts === 1 ? [0] : [0, 2000]) {
    const figures = await runConfiguration(hosts, affinityMs);
    results.push(figures);
    console.error(`  done: ${hosts} host(s), affinity ${affinityMs} ms`);
  }
}
const pct = (f: Figures) => `${((100 * f.warm) / Math.max(1, f.placed)).toFixed(0)}% (${f.warm}/${f.placed})`;
const row = (f: Figures | undefined) =>
  f
    ? `${pct(f).padEnd(13)} ${f.perMinute.toFixed(1).padStart(6)}/min  p50 ${(f.p50 / 1000).toFixed(1)} s  p95 ${(f.p95 / 1000).toFixed(1)} s  held back ${f.heldBack} (${f.heldBackCold} cold)  jobs per host ${f.byHost}`
    : '(same as without: one worker)';
console.log('hosts  without affinity (baseline)                                                with affinity (2000 ms bound)');
for (const hosts of HOST_COUNTS) {
  const without = results.find((f) => f.hosts === hosts && f.affinityMs === 0);
  const withIt = results.find((f) => f.hosts === hosts && f.affinityMs > 0);
  console.log(`${String(hosts).padEnd(6)} ${row(without).padEnd(80)} ${row(withIt)}`);
}
console.log(`load after: ${loadavg()[0]!.toFixed(2)}`);
await scratch.remove();
