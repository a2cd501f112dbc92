import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appMentionEnvelope } from '../fakes/slack-fake.js';
import { createE2eWorld, type E2eWorld, SIGNING_SECRET } from './e2e-world.js';
import { createFileStep, finishStep, scriptByRun } from './scripted-runs.js';
import { threadReply } from './thread-replies.js';

/**
 * Issue 44 item 2 through the whole service: a planted `preinstall` opens 300 slow connections through the egress
 * proxy it is handed (half a CONNECT line each, never finished) and holds them. What is measured is the outside: the
 * descriptors the Wrench process holds (/proc/<pid>/fd), sampled meanwhile, stay within the cap
 * (WRENCH_EGRESS_MAX_CONNECTIONS=20 here), and /healthz answers promptly the whole time.
 */
const CONFIG = `
channels:
  C0FLOOD: { repo: acme/flood }
verification:
  acme/flood: { setup: "npm install --no-audit --no-fund" }
sandbox: { mode: bwrap }
`;

const FLOOD = String.raw`
const net = require('node:net');
const proxy = new URL(process.env.HTTPS_PROXY);
const sockets = [];
let connected = 0;
let closed = 0;
for (let i = 0; i < 300; i++) {
  const socket = net.connect({ host: proxy.hostname, port: Number(proxy.port) }, () => { connected++; socket.write('CONNECT registry.npmjs.org:443 HTTP/1.1\r\n'); });
  socket.on('error', () => {});
  socket.on('close', () => closed++);
  sockets.push(socket);
}
setTimeout(() => {
  console.log('flood connected ' + connected + ', closed early ' + closed);
  for (const socket of sockets) socket.destroy();
}, 12000);
`;

describe('an egress flood against the running service', () => {
  let world: E2eWorld;

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'flood', {
      'package.json': JSON.stringify({ name: 'flood', version: '1.0.0', scripts: { preinstall: 'node flood.js', test: 'node --test' } }),
      'flood.js': FLOOD,
    });
    await world.start({ WRENCH_EGRESS_MAX_CONNECTIONS: '20' });
  }, 90_000);

  afterAll(async () => {
    await world?.stop();
  });

  it('holds the process to the cap of descriptors and keeps /healthz prompt', async () => {
    const pid = world.wrench!.child.pid!;
    const descriptors = () => readdirSync(`/proc/${pid}/fd`).length;
    const baseline = descriptors();
    const samples: number[] = [];
    const health: number[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        samples.push(descriptors());
        const started = Date.now();
        const status = await fetch(`${world.wrench!.url}/healthz`).then(
          (r) => r.status,
          () => 0,
        );
        health.push(status === 200 ? Date.now() - started : Number.POSITIVE_INFINITY);
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
    })();

    world.anthropic.setScript(scriptByRun({ 'flood marker': [createFileStep('NOTES.md', 'notes\n'), finishStep('Added notes.')] }).items);
    const envelope = appMentionEnvelope({ channel: 'C0FLOOD', user: 'U0ALICE', text: '<@U0BOT> flood marker: add a NOTES.md file' });
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    const ts = (envelope.event as { ts: string }).ts;
    await threadReply(world, ts, /\/pull\//, 150_000);
    sampling = false;
    await sampler;

    const peak = Math.max(...samples) - baseline;
    // 20 connections (two descriptors each at most) plus what a job itself opens (git, Redis, pipes, the sandbox).
    expect(peak, `descriptors above baseline ${baseline}: ${samples.join(',')}`).toBeLessThan(120);
    // The flood ran and met the cap (Wrench's own log says so).
    expect(world.wrench!.output()).toContain('egress connection cap reached');
    expect(health.length).toBeGreaterThan(20);
    expect(Math.max(...health), `healthz ms: ${health.join(',')}`).toBeLessThan(3000);
  }, 200_000);
});
