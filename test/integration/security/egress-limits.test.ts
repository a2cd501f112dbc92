import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllowEntry } from '../../../src/sandbox/egress/egress-policy.js';
import { startEgressProxy } from '../../../src/sandbox/egress/egress-proxy.js';

/**
 * Issue 44 item 2, the proxy on its own: one command's proxy holds at most `maxConnections` connections (more are
 * closed as soon as they arrive, so they hold none of Wrench's descriptors), and a tunnel with no traffic either way
 * is closed after `idleMs`. The destination is a listener on 127.0.0.1 named with its port, as a local mirror is.
 */
describe('egress proxy limits', () => {
  let upstream: Server;
  let port = 0;
  const upstreamSockets: Socket[] = [];

  beforeAll(async () => {
    upstream = createServer((socket) => {
      upstreamSockets.push(socket);
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    port = (upstream.address() as { port: number }).port;
  });

  afterAll(async () => {
    for (const socket of upstreamSockets) socket.destroy();
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
  });

  const open = (socketPath: string) =>
    new Promise<{ socket: Socket; closed: Promise<number> }>((resolve) => {
      const socket = connect(socketPath);
      const started = Date.now();
      const closed = new Promise<number>((done) => socket.on('close', () => done(Date.now() - started)));
      socket.on('error', () => {});
      socket.on('connect', () => resolve({ socket, closed }));
    });

  it('closes connections beyond the cap at once and says so once; those within it stay', async () => {
    const capped: number[] = [];
    const proxy = await startEgressProxy({
      policy: { scope: 'registries', allow: [parseAllowEntry(`127.0.0.1:${port}`)] },
      limits: { maxConnections: 5, idleMs: 60_000 },
      onCapped: (max) => capped.push(max),
    });
    try {
      const connections = [];
      for (let i = 0; i < 12; i++) connections.push(await open(proxy.socketPath));
      // A slow client: half a request line each, never finished.
      for (const { socket } of connections) socket.write('CONNECT 127.0.0.1');
      const outcome = await Promise.all(connections.map(({ closed }) => Promise.race([closed.then(() => 'closed'), delay(1500).then(() => 'open')])));
      expect(outcome.filter((state) => state === 'open')).toHaveLength(5);
      expect(outcome.filter((state) => state === 'closed')).toHaveLength(7);
      expect(capped).toEqual([5]);
      for (const { socket } of connections) socket.destroy();
      await delay(100);
      // Once they are gone, a new connection is served again: a tunnel to the named service opens.
      const again = await open(proxy.socketPath);
      const reply = await tunnel(again.socket, port);
      expect(reply).toMatch(/^HTTP\/1\.1 200/);
      again.socket.destroy();
    } finally {
      await proxy.close();
    }
  });

  it('closes a tunnel with no traffic either way after the idle time, both ends', async () => {
    const proxy = await startEgressProxy({
      policy: { scope: 'registries', allow: [parseAllowEntry(`127.0.0.1:${port}`)] },
      limits: { maxConnections: 5, idleMs: 400 },
    });
    try {
      const { socket, closed } = await open(proxy.socketPath);
      expect(await tunnel(socket, port)).toMatch(/^HTTP\/1\.1 200/);
      const before = upstreamSockets.length;
      expect(before).toBeGreaterThan(0);
      const after = await Promise.race([closed, delay(5000).then(() => -1)]);
      expect(after).toBeGreaterThanOrEqual(350);
      expect(after).toBeLessThan(4000);
      const upstreamEnd = upstreamSockets.at(-1)!;
      await delay(100);
      expect(upstreamEnd.destroyed || upstreamEnd.readableEnded).toBe(true);
    } finally {
      await proxy.close();
    }
  });
});

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function tunnel(socket: Socket, port: number): Promise<string> {
  return new Promise((resolve) => {
    socket.once('data', (chunk) => resolve(String(chunk)));
    socket.write(`CONNECT 127.0.0.1:${port} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
  });
}
