/**
 * bench/github-webhook-ack: how fast a running Wrench (built: npm run build) answers GitHub webhook deliveries
 * through the real route: refused (bad signature), left alone (unknown event; a pull request Wrench did not open,
 * one Redis lookup), duplicate, and queued (signature, read, lookup, claim, BullMQ add). Each kind is sent N times,
 * one at a time; prints p50, p95 and max in milliseconds.
 *
 *   npx tsx bench/github-webhook-ack.ts [N]
 *
 * Target: every answer far under GitHub's 10 s, nothing slow (no GitHub API call) before it.
 */
import { Octokit } from '@octokit/rest';
import { createRedis } from '../src/redis/redis-connection.js';
import { ThreadSessionStore } from '../src/sessions/thread-session-store.js';
import { createE2eWorld } from '../test/e2e/e2e-world.js';
import { deliverGitHubWebhook } from '../test/fakes/github-webhook-sender.js';

const N = Number(process.argv[2] ?? 50);
const SECRET = 'bench-github-webhook-secret';

async function timed(send: (i: number) => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < N; i++) {
    const start = performance.now();
    await send(i);
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b);
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const row = (name: string, t: number[]) =>
  console.log(
    `${name.padEnd(34)} p50 ${pct(t, 50).toFixed(1).padStart(7)}  p95 ${pct(t, 95).toFixed(1).padStart(7)}  max ${t[t.length - 1]!.toFixed(1).padStart(7)}`,
  );

const world = await createE2eWorld('channels:\n  C0DEV: { repo: acme/app }\nsandbox: { mode: none }\n', { github: { users: { ghp_reader: 'reader' } } });
try {
  await world.github.createRepo('acme', 'app', { 'src/a.js': 'export const a = 1;\n' });
  await world.github.commit('acme', 'app', 'wrench/bench', { message: 'bench', files: { 'src/a.js': 'export const a = 2;\n' } });
  await world.github.commit('acme', 'app', 'other', { message: 'other', files: { 'src/b.js': 'export const b = 1;\n' } });
  const ours = Number((await world.github.createPull('acme', 'app', { title: 'Bench', head: 'wrench/bench', user: 'wrench-bot' })).number);
  const theirs = Number((await world.github.createPull('acme', 'app', { title: 'Other', head: 'other', user: 'octocat' })).number);
  // The thread a real run would have left behind.
  const redis = createRedis(world.redis.url);
  const sessions = new ThreadSessionStore(redis, world.env.WRENCH_QUEUE_PREFIX!);
  const now = new Date().toISOString();
  await sessions.update('C0DEV', '1700000000.000100', () => ({
    channel: 'C0DEV',
    threadTs: '1700000000.000100',
    repo: { owner: 'acme', name: 'app' },
    requester: 'U0A',
    branch: 'wrench/bench',
    pullRequest: { number: ours, url: 'u' },
    runs: [],
    createdAt: now,
    updatedAt: now,
  }));
  sessions.close();
  redis.disconnect();

  await world.start({ GITHUB_WEBHOOK_SECRET: SECRET });
  const url = `${world.wrench!.url}/github/webhook`;
  const reader = new Octokit({ auth: 'ghp_reader', baseUrl: world.github.url });
  const comment = async (pull: number) =>
    world.github.payloads.issueComment(
      (await reader.issues.createComment({ owner: 'acme', repo: 'app', issue_number: pull, body: '@wrench-bot bench' })).data.id,
    );
  const onOurs = await comment(ours);
  const onTheirs = await comment(theirs);
  const send = (event: string, payload: unknown, options: { deliveryId?: string; badSignature?: boolean } = {}) =>
    deliverGitHubWebhook(url, event, payload, { secret: SECRET, ...options });

  console.log(`${N} deliveries of each kind, one at a time (ms)`);
  row('bad signature (401)', await timed(() => send('issue_comment', onOurs, { badSignature: true })));
  row('unknown event (200)', await timed(() => send('star', { action: 'created' })));
  row('PR Wrench did not open (200)', await timed(() => send('issue_comment', onTheirs)));
  row('queued (202)', await timed((i) => send('issue_comment', onOurs, { deliveryId: `bench-${i}` })));
  row('redelivery (200 duplicate)', await timed(() => send('issue_comment', onOurs, { deliveryId: 'bench-0' })));
} finally {
  await world.stop();
}
