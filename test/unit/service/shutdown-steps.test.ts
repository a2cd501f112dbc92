import { Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { ShutdownSteps } from '../../../app/service/shutdown-steps.js';
import { createLogger } from '../../../src/logging/logger.js';

function capturedLogger() {
  const lines: { level: number; msg: string; step?: string }[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: createLogger({ destination }), lines };
}

describe('ShutdownSteps', () => {
  it('a step that does not finish within its bound is logged by name and left behind; the next one still runs', async () => {
    const { logger, lines } = capturedLogger();
    const steps = new ShutdownSteps(logger, 50);
    const dropped = vi.fn();
    const order: string[] = [];
    await steps.run('queues', () => new Promise(() => {}), { onCut: dropped });
    await steps.run('outbox', () => order.push('outbox ran'));
    expect(order).toEqual(['outbox ran']);
    expect(dropped).toHaveBeenCalledTimes(1);
    expect(steps.outcome()).toEqual({ cut: ['queues'] });
    expect(lines).toContainEqual(expect.objectContaining({ level: 50, step: 'queues', msg: 'shutdown step queues did not finish within 50 ms' }));
  });

  it('a step may have its own bound; steps that finish, or fail (logged), are not cut', async () => {
    const { logger, lines } = capturedLogger();
    const steps = new ShutdownSteps(logger, 10);
    await steps.run('task jobs', () => new Promise((resolve) => setTimeout(resolve, 60)), { boundMs: 1000 });
    await steps.run('slack app', () => Promise.reject(new Error('server not running')));
    await steps.run('health server', () => undefined);
    expect(steps.outcome()).toEqual({ cut: [] });
    expect(lines).toContainEqual(expect.objectContaining({ level: 40, step: 'slack app', msg: 'shutdown step slack app failed' }));
    expect(lines.filter((line) => /did not finish/.test(line.msg))).toEqual([]);
  });
});
