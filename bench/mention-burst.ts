/**
 * A burst of mentions with SIGKILLs of the `all` role (`npm run bench:burst`): 20 mentions (`--mentions=N`) delivered a
 * few hundred ms apart to a real `wrench start` on the fakes and a real Redis, the process SIGKILLed and restarted 5 times
 * (`--kills=N`) during the burst. Each mention is then counted by the pull requests it got on the GitHub fake: answered once,
 * duplicated (more than one), or lost (none within the wait); and by its thread: whether it got a last word (a reply,
 * or a message saying what happened), which is what the person sees. Goal: all answered once, every thread with its word.
 */
import { writeFile } from 'node:fs/promises';
import { createE2eWorld, SIGNING_SECRET } from '../test/e2e/e2e-world.js';
import { bashStep, createFileStep, finishStep, scriptByRun } from '../test/e2e/scripted-runs.js';
import { appMentionEnvelope } from '../test/fakes/slack-fake.js';
import { finalWord } from '../test/e2e/thread-replies.js';

const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const MENTIONS = arg('mentions', 20);
const KILLS = arg('kills', 5);
const WAIT_MS = arg('wait-seconds', 420) * 1000;

const CONFIG = `
channels:
  C0DEV: { repo: acme/burst }
sandbox: { mode: none }
limits: { concurrency: 4 }
`;

async function main(): Promise<void> {
  const world = await createE2eWorld(CONFIG);
  try {
    await world.github.createRepo('acme', 'burst', { 'README.md': '# burst\n' });
    const runs = Object.fromEntries(
      Array.from({ length: MENTIONS }, (_, i) => [
        `burst run ${i + 1} `,
        [bashStep('sleep 1', 500), createFileStep(`src/burst${i + 1}.js`, `export const n = ${i + 1};\n`), finishStep(`Added burst${i + 1}.js.`)],
      ]),
    );
    world.anthropic.setScript(scriptByRun(runs).items);
    const env = { WRENCH_MENTION_CLAIM_SECONDS: '2' };
    await world.start(env);
    const killAfter = new Set(Array.from({ length: KILLS }, (_, k) => Math.round(((k + 1) * MENTIONS) / (KILLS + 1))));
    const started = Date.now();
    let kills = 0;
    // Every process's log, the killed ones' too: a thread left silent is told with its lines.
    const logs: string[] = [];
    const threads: string[] = [];
    for (let i = 1; i <= MENTIONS; i += 1) {
      const envelope = appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: `<@U0BOT> burst run ${i} : add src/burst${i}.js` });
      threads.push((envelope.event as { ts: string }).ts);
      // Slack sends again what was not acknowledged (a process being restarted): so does the bench, until a 2xx.
      for (let attempt = 0; ; attempt += 1) {
        const status = await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope).then(
          (answer) => answer.status,
          () => 0,
        );
        if (status >= 200 && status < 300) break;
        if (attempt > 60) throw new Error(`mention ${i} was never acknowledged (last status ${status})`);
        await new Promise((r) => setTimeout(r, 500));
      }
      await new Promise((r) => setTimeout(r, 300));
      if (killAfter.has(i)) {
        // Killed while runs are going on and mentions are being read, then started again at once.
        await new Promise((r) => setTimeout(r, 1500));
        const { child } = world.wrench!;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
        logs.push(world.wrench!.output());
        kills += 1;
        await world.start(env);
      }
    }
    const countOf = (i: number) => world.github.pulls('acme', 'burst').filter((p) => new RegExp(`burst run ${i}\\b`, 'i').test(p.title)).length;
    const spoke = (i: number) => finalWord(world, 'C0DEV', threads[i - 1]!) !== undefined;
    const deadline = Date.now() + WAIT_MS;
    let settledSince = Date.now();
    let last = -1;
    for (;;) {
      const answered = Array.from({ length: MENTIONS }, (_, i) => (countOf(i + 1) > 0 ? 1 : 0) + (spoke(i + 1) ? 1 : 0)).reduce((a, b) => a + b, 0);
      if (answered !== last) {
        last = answered;
        settledSince = Date.now();
      }
      if (answered === 2 * MENTIONS && Date.now() - settledSince > 20_000) break;
      if (Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    const counts = Array.from({ length: MENTIONS }, (_, i) => countOf(i + 1));
    const once = counts.filter((n) => n === 1).length;
    const duplicated = counts.filter((n) => n > 1).length;
    const lost = counts.filter((n) => n === 0).length;
    const silent = threads.map((_, i) => i + 1).filter((i) => !spoke(i));
    logs.push(world.wrench?.output() ?? '');
    console.log(`mentions: ${MENTIONS}, SIGKILLs of the all role: ${kills}, took ${Math.round((Date.now() - started) / 1000)} s`);
    console.log(`answered once: ${once} / duplicated: ${duplicated} / lost: ${lost}   (goal ${MENTIONS} / 0 / 0)`);
    if (duplicated + lost > 0)
      console.log(
        `per mention (pull requests): ${counts
          .map((n, i) => `${i + 1}:${n}`)
          .filter((_, i) => counts[i] !== 1)
          .join(' ')}`,
      );
    console.log(`threads with a last word: ${MENTIONS - silent.length} / silent: ${silent.length}   (goal ${MENTIONS} / 0)`);
    for (const i of silent) {
      const ts = threads[i - 1]!;
      const calls = world.slack.calls.filter((c) => c.args.thread_ts === ts || c.args.ts === ts).map((c) => c.method + (c.error ? `(${c.error})` : ''));
      console.log(`silent thread of mention ${i} (${ts}): Slack calls ${calls.join(', ')}`);
    }
    // WRENCH_BENCH_LOGS=<file>: every process's log, in order, for reading what happened to a silent thread.
    if (process.env.WRENCH_BENCH_LOGS) await writeFile(process.env.WRENCH_BENCH_LOGS, logs.map((log, n) => `=== process ${n + 1}\n${log}`).join('\n'));
    process.exitCode = duplicated + lost + silent.length > 0 ? 1 : 0;
  } finally {
    await world.stop();
  }
}

await main();
