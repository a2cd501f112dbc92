import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appMentionEnvelope } from '../fakes/slack-fake.js';
import { startRedisCluster, type ClusterSetup } from '../helpers/redis-cluster.js';
import { uniqueName } from '../helpers/unique-name.js';
import { runWrench } from '../helpers/wrench-process.js';
import { createE2eWorld, SIGNING_SECRET, type E2eWorld } from './e2e-world.js';
import { threadReply } from './thread-replies.js';
import { createFileStep, finishStep, scriptByRun } from './scripted-runs.js';

const CONFIG = `
channels:
  C0DEV: { repo: acme/clustered }
sandbox: { mode: none }
`;
const PASSWORD = 'e2e-cluster-password-0123456789';

/** `wrench start` on a real Redis Cluster of three masters that require a password. */
describe('wrench with Redis Cluster', () => {
  let world: E2eWorld;
  let setup: ClusterSetup;
  let cluster: Cluster;
  let prefix: string;

  beforeAll(async () => {
    [world, setup] = await Promise.all([createE2eWorld(CONFIG), startRedisCluster({ auth: { password: PASSWORD } })]);
    await world.github.createRepo('acme', 'clustered', { 'README.md': '# clustered\n' });
    cluster = new Cluster(setup.nodes, { redisOptions: { password: PASSWORD } });
    // A prefix whose slot is not on REDIS_URL's node: Wrench talking to that node alone would be answered MOVED.
    for (;;) {
      prefix = `{${uniqueName('e2e').toLowerCase()}}`;
      const owner = cluster.slots[Number(await cluster.cluster('KEYSLOT', prefix))]?.[0];
      if (owner && owner !== `127.0.0.1:${setup.nodes[0]?.port}`) break;
    }
  }, 40_000);

  afterAll(async () => {
    if (process.env.WRENCH_E2E_DEBUG) console.log(world?.wrench?.output());
    cluster?.disconnect();
    await world?.stop();
    await setup?.stop();
  });

  const clusterEnv = () => ({
    REDIS_URL: setup.url,
    REDIS_CLUSTER_NODES: setup.nodes
      .slice(1)
      .map((node) => `${node.host}:${node.port}`)
      .join(','),
    WRENCH_QUEUE_PREFIX: prefix,
  });

  it('start refuses a prefix without a hash tag, naming WRENCH_QUEUE_PREFIX; doctor checks the cluster', async () => {
    const plain = await runWrench(['start'], { ...world.env, ...clusterEnv(), WRENCH_QUEUE_PREFIX: 'wrench' });
    expect(plain.code).toBe(1);
    expect(plain.stderr).toContain(
      'REDIS_CLUSTER_NODES is set, so WRENCH_QUEUE_PREFIX must be a hash tag in braces (e.g. WRENCH_QUEUE_PREFIX={wrench}), not "wrench"',
    );

    const doctor = await runWrench(['doctor'], { ...world.env, ...clusterEnv() });
    expect(doctor.stdout).toContain(`ok    Redis: the Redis Cluster of redis://:***@127.0.0.1:${setup.nodes[0]?.port}, `);
    expect(doctor.stdout).toContain(`answers: cluster_state:ok, 3 masters; Wrench's keys (${prefix}) are in slot `);
    // The checks that read Wrench's keys read them through the cluster too.
    expect(doctor.stdout).toContain('ok    Slack deliveries: every thread reply was delivered');
    expect(doctor.stdout).toContain('ok    Slack agent surfaces: no workspace refused');
    expect(doctor.stdout + doctor.stderr).not.toContain(PASSWORD);
  });

  it('start answers a mention through the cluster: the run is queued, worked and replied to, once; stop exits 0', async () => {
    const agent = scriptByRun({ 'clustered task': [createFileStep('src/clustered.js', 'export const clustered = 1;\n'), finishStep('Added clustered.js.')] });
    world.anthropic.setScript(agent.items);
    const wrench = await world.start(clusterEnv());
    try {
      expect(((await (await fetch(`${wrench.url}/healthz`)).json()) as { status: string }).status).toBe('ok');
      const envelope = appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: '<@U0BOT> clustered task: add src/clustered.js exporting `clustered`' });
      const ts = (envelope.event as { ts: string }).ts;
      expect((await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope)).status).toBe(200);
      await threadReply(world, ts, /Opened PR #/, 90_000);
      expect(world.github.pulls('acme', 'clustered')).toHaveLength(1);
      expect(agent.trace).toHaveLength(2);

      // Everything Wrench and BullMQ wrote is on the one master of the prefix's slot.
      const found = await Promise.all(cluster.nodes('master').map(async (node) => (await node.keys(`${prefix}*`)).length));
      expect(found.filter((count) => count > 0)).toHaveLength(1);
      expect(await cluster.exists(`${prefix}:tasks:meta`)).toBe(1);
      expect(wrench.output()).not.toContain(PASSWORD);
      expect(wrench.output()).not.toMatch(/CROSSSLOT|MOVED|"level":50/);
    } finally {
      expect(await wrench.stop()).toBe(0);
      world.wrench = undefined;
    }
  }, 120_000);
});
