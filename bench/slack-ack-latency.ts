/**
 * bench/slack-ack-latency: how fast a running Wrench (built: npm run build) answers Slack requests it
 * cannot act on, through the real HTTP route, and how fast /healthz answers with Redis up and down.
 * Each kind is sent N times, one at a time; prints p50, p95 and max in milliseconds.
 *
 *   npx tsx bench/slack-ack-latency.ts [N]
 *
 * Targets: every answer under 100 ms (Slack waits 3 s); /healthz under 1 s even with Redis down.
 */
import { createE2eWorld, SIGNING_SECRET } from '../test/e2e/e2e-world.js';
import { blockActionsPayload, deliverEvent, deliverInteraction, viewSubmissionPayload } from '../test/fakes/slack-fake.js';

const N = Number(process.argv[2] ?? 50);

async function timed(send: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < N; i++) {
    const start = performance.now();
    await send();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b);
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const row = (name: string, t: number[]) =>
  console.log(
    `${name.padEnd(34)} p50 ${pct(t, 50).toFixed(1).padStart(7)}  p95 ${pct(t, 95).toFixed(1).padStart(7)}  max ${t[t.length - 1]!.toFixed(1).padStart(7)}`,
  );

const world = await createE2eWorld('channels:\n  C0DEV: { repo: acme/target }\nsandbox: { mode: none }\n');
try {
  await world.start();
  const url = world.eventsUrl();
  console.log(`${N} requests of each kind, one at a time (ms)`);
  row('signed JSON null', await timed(() => deliverEvent(url, SIGNING_SECRET, 'null')));
  row('event_callback with event: null', await timed(() => deliverEvent(url, SIGNING_SECRET, '{"type":"event_callback","event":null}')));
  row('unknown envelope type', await timed(() => deliverEvent(url, SIGNING_SECRET, '{"type":"brand_new"}')));
  row(
    'block_actions, foreign action id',
    await timed(() =>
      deliverInteraction(url, SIGNING_SECRET, blockActionsPayload({ user: 'U0A', channel: 'C0DEV', message_ts: '1.1', action_id: 'other_app_button' })),
    ),
  );
  row(
    'view_submission, foreign callback',
    await timed(() => deliverInteraction(url, SIGNING_SECRET, viewSubmissionPayload({ user: 'U0A', callback_id: 'other_app_modal' }))),
  );
  row('/healthz, Redis up', await timed(() => fetch(`${world.wrench!.url}/healthz`).then((r) => r.text())));
  await world.redis.stop();
  row('/healthz, Redis down', await timed(() => fetch(`${world.wrench!.url}/healthz`).then((r) => r.text())));
} finally {
  await world.stop();
}
