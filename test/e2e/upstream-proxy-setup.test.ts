import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNpmRegistryFake, type NpmRegistryFake } from '../fakes/npm-registry-fake.js';
import { type OperatorProxyFake, startOperatorProxyFake } from '../fakes/operator-proxy-fake.js';
import { appMentionEnvelope } from '../fakes/slack-fake.js';
import { createE2eWorld, type E2eWorld, SIGNING_SECRET } from './e2e-world.js';
import { createFileStep, finishStep, scriptByRun } from './scripted-runs.js';
import { threadReply } from './thread-replies.js';

/**
 * Issue 44 item 18 through `wrench start`: the company proxy is in Wrench's own environment (HTTPS_PROXY, with
 * credentials, NO_PROXY for loopback as an operator writes it), and the setup step's registry (on 127.0.0.2, reached
 * only through the proxy) is in the allow list. With a wrong password the run's record and the thread say the proxy's
 * 407, and the password is nowhere Wrench wrote; restarted with the right one, the next job on the same lock files
 * installs through the proxy (the 407 failure was not remembered).
 */

const RIGHT = 'corp-right-Pa55word';
const WRONG = 'corp-wrong-Pa55word';

describe('the setup step behind a company proxy, through the running service', () => {
  let world: E2eWorld;
  let operator: OperatorProxyFake;
  let registry: NpmRegistryFake;
  let target: string;

  const mention = async (text: string) => {
    const envelope = appMentionEnvelope({ channel: 'C0CORP', user: 'U0ALICE', text: `<@U0BOT> ${text}` });
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    return (envelope.event as { ts: string }).ts;
  };
  const proxyEnv = (password: string) => ({ HTTPS_PROXY: operator.url.replace(RIGHT, password), NO_PROXY: 'localhost,127.0.0.1' });

  beforeAll(async () => {
    operator = await startOperatorProxyFake({ user: 'wrench', password: RIGHT });
    registry = await startNpmRegistryFake({ 'tiny-dep': ['1.0.0'] }, { host: '127.0.0.2' });
    target = new URL(registry.url).host;
    world = await createE2eWorld(`
channels:
  C0CORP: { repo: acme/corp }
verification:
  acme/corp: { setup: "curl -sSf -m 10 -p ${registry.url}tiny-dep -o tiny-dep.json" }
sandbox:
  mode: bwrap
  egress: { allow: ["${target}"] }
`);
    await world.github.createRepo('acme', 'corp', {
      'package.json': JSON.stringify({ name: 'corp', version: '1.0.0', scripts: { test: 'node --test' } }),
      '.gitignore': 'tiny-dep.json\n',
    });
    world.anthropic.setScript(
      scriptByRun({
        'first marker': [createFileStep('NOTES.md', 'notes\n'), finishStep('Added notes.')],
        'second marker': [createFileStep('MORE.md', 'more\n'), finishStep('Added more notes.')],
      }).items,
    );
    await world.start(proxyEnv(WRONG));
  }, 90_000);

  afterAll(async () => {
    await world?.stop();
    await operator?.stop();
    await registry?.stop();
  });

  it("says the proxy's 407 on the run page and in the thread, never its password; with the right one the next job installs", async () => {
    const ts = await mention('first marker: add a NOTES.md file');
    const reply = await threadReply(world, ts, /\/pull\//, 150_000);
    const line = `Setup could not reach ${target}: the upstream proxy 127.0.0.1:${operator.port} (HTTPS_PROXY) answered 407 Proxy Authentication Required.`;
    expect(reply.text).toContain(line);
    expect(world.github.pulls('acme', 'corp').at(-1)?.body).toContain(line);
    expect(operator.seen).toEqual(expect.arrayContaining([expect.objectContaining({ method: 'CONNECT', target, status: 407 })]));
    expect(registry.requests).toEqual([]);

    const redis = new Redis(world.redis.url);
    let entries: string;
    try {
      const entryKeys = await redis.keys(`${world.env.WRENCH_QUEUE_PREFIX}:runlog:*:entries`);
      entries = (await Promise.all(entryKeys.map((key) => redis.lrange(key, 0, -1)))).flat().join('\n');
    } finally {
      redis.disconnect();
    }
    expect(entries).toContain(
      `Network refused by the upstream proxy: ${target}: the upstream proxy 127.0.0.1:${operator.port} (HTTPS_PROXY) answered 407 Proxy Authentication Required`,
    );
    const token = Buffer.from(`wrench:${WRONG}`).toString('base64');
    for (const written of [entries, reply.text, world.wrench!.output()]) {
      expect(written).not.toContain(WRONG);
      expect(written).not.toContain(token);
    }

    // The operator fixes the password and restarts Wrench: the same lock files' setup runs again, through the proxy.
    await world.wrench!.stop();
    await world.start(proxyEnv(RIGHT));
    const second = await mention('second marker: add a MORE.md file');
    const fixed = await threadReply(world, second, /\/pull\//, 150_000);
    expect(fixed.text).not.toContain('Setup could not reach');
    expect(operator.seen).toEqual(expect.arrayContaining([expect.objectContaining({ method: 'CONNECT', target, status: 200 })]));
    expect(registry.requests).toContain('/tiny-dep');
    expect(new Set(registry.clients)).toEqual(new Set(['127.0.0.3']));
  }, 360_000);
});
