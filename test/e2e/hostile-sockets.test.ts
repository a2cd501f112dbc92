import { accessSync, constants } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appMentionEnvelope } from '../fakes/slack-fake.js';
import { createE2eWorld, type E2eWorld, SIGNING_SECRET } from './e2e-world.js';
import { bashStep, createFileStep, finishStep, scriptByRun } from './scripted-runs.js';
import { threadReply } from './thread-replies.js';

/**
 * Issue 44 item 1 through the whole service: the host listens on Unix sockets where real services keep theirs (under
 * /var/tmp, and under /srv or /var/lib as a database's would be), and under /opt, /etc and /usr/lib, which the sandbox's
 * root does show (read-only, which does not refuse connect()). A planted `preinstall` in the setup step (network
 * on, through the egress proxy) and the agent's own command (network off) both go for them, with node's
 * `net.connect(path)` and socat. What is asserted is what the listeners saw: not one connection. That the probes ran
 * is asserted too (the agent's command output reached the model; the preinstall's follow-up request was refused by
 * the egress proxy and recorded in the run log), so the test cannot pass by the probes not running.
 */
const CONFIG = `
channels:
  C0SOCK: { repo: acme/sockets }
verification:
  acme/sockets: { setup: "npm install --no-audit --no-fund" }
sandbox: { mode: bwrap }
`;

const PROBE = String.raw`
const net = require('node:net');
const [who, ...paths] = process.argv.slice(2);
const tryOne = (file) => new Promise((resolve) => {
  const socket = net.connect(file);
  socket.setTimeout(3000, () => { socket.destroy(); resolve(file + ' timeout'); });
  socket.on('error', (error) => resolve(file + ' ' + error.code));
  socket.on('connect', () => { socket.end(who + ' reached ' + file + '\n'); resolve(file + ' CONNECTED'); });
});
(async () => {
  for (const file of paths) console.log('socket-probe ' + who + ': ' + (await tryOne(file)));
})();
`;

describe('host Unix sockets against the running service', () => {
  let world: E2eWorld;
  const listeners: Server[] = [];
  const dirs: string[] = [];
  const sockets: string[] = [];
  const seen: string[] = [];

  const listenAt = async (parent: string, name: string) => {
    const dir = await mkdtemp(path.join(parent, 'wrench-sock-'));
    dirs.push(dir);
    const file = path.join(dir, name);
    const server = createServer((socket) => {
      seen.push(file);
      socket.on('data', (chunk) => seen.push(String(chunk).trim()));
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => server.listen(file, resolve));
    listeners.push(server);
    sockets.push(file);
  };

  beforeAll(async () => {
    await listenAt('/var/tmp', 'host.sock');
    // Where a database or a node agent keeps its socket: /srv if this host lets us write there, else /var/lib.
    await listenAt('/srv', 'db.sock').catch(() => listenAt('/var/lib', 'db.sock'));
    // Shown in the sandbox: a vendor agent's socket under /opt, a service's under /etc, a daemon's under /usr/lib (found by
    // the background scan of /usr, not the one before every command). Tests run as root here.
    for (const shown of ['/opt', '/etc', '/usr/lib'])
      if (writable(shown)) await listenAt(shown, 'agent.sock');
      else console.warn(`hostile-sockets: ${shown} is not writable by this test run, so no listener is placed under it`);
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'sockets', {
      'package.json': JSON.stringify({
        name: 'sockets',
        version: '1.0.0',
        scripts: {
          preinstall: `node probe.js preinstall ${sockets.join(' ')}; for s in ${sockets.join(' ')}; do echo preinstall-socat | socat -t1 - UNIX-CONNECT:$s; done; curl -sS -m 5 https://socket-probe-ran.example/ || true`,
          test: 'node --test',
        },
      }),
      'probe.js': PROBE,
    });
    await world.start();
  }, 90_000);

  afterAll(async () => {
    await world?.stop();
    for (const server of listeners) await new Promise<void>((resolve) => server.close(() => resolve()));
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('neither the setup step nor the agent reaches a socket the host listens on', async () => {
    const agentProbe = `node probe.js agent ${sockets.join(' ')}; for s in ${sockets.join(' ')}; do echo agent-socat | socat -t1 - UNIX-CONNECT:$s; echo "socat $s: $?"; done; echo agent-probe-done`;
    world.anthropic.setScript(
      scriptByRun({ 'socket marker': [bashStep(agentProbe), createFileStep('NOTES.md', 'notes\n'), finishStep('Added notes.')] }).items,
    );
    const envelope = appMentionEnvelope({ channel: 'C0SOCK', user: 'U0ALICE', text: '<@U0BOT> socket marker: add a NOTES.md file' });
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    const ts = (envelope.event as { ts: string }).ts;
    await threadReply(world, ts, /\/pull\//, 150_000);

    // The outside world: the listeners saw no connection at all.
    expect(seen).toEqual([]);

    // The probes did run: the agent's command answered the model, the preinstall went on to its refused request.
    const toModel = JSON.stringify(world.anthropic.requests.map((request) => request.body));
    expect(toModel).toContain('agent-probe-done');
    for (const file of sockets) expect(toModel).toMatch(new RegExp(`socket-probe agent: ${file.replace(/[.]/g, '\\.')} (ENOENT|ECONNREFUSED|EACCES)`));
    const redis = new Redis(world.redis.url);
    try {
      const entryKeys = await redis.keys(`${world.env.WRENCH_QUEUE_PREFIX}:runlog:*:entries`);
      const entries = (await Promise.all(entryKeys.map((key) => redis.lrange(key, 0, -1)))).flat().join('\n');
      expect(entries).toContain('Network refused by the egress policy: socket-probe-ran.example:443');
    } finally {
      redis.disconnect();
    }
  }, 200_000);
});

function writable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
