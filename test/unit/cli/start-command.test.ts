import { afterEach, describe, expect, it, vi } from 'vitest';

const started = vi.hoisted(() => ({
  resolve: undefined as undefined | ((service: unknown) => void),
  reject: undefined as undefined | ((error: unknown) => void),
  stop: vi.fn(async () => ({ cut: [] as string[] })),
}));

vi.mock('../../../src/config/load-config.js', () => ({ loadConfig: () => ({}) }));
vi.mock('../../../app/service/process-guards.js', () => ({ installProcessGuards: () => () => {} }));
vi.mock('../../../app/service/start-service.js', () => ({
  StoppedWhileStarting: class extends Error {
    constructor(
      readonly signal: string,
      readonly cut: string[],
    ) {
      super(`stopped by ${signal} while starting`);
    }
  },
  startService: () =>
    new Promise((resolve, reject) => {
      started.resolve = resolve;
      started.reject = reject;
    }),
}));

const { startCommand } = await import('../../../app/cli/start-command.js');
const { StoppedWhileStarting } = await import('../../../app/service/start-service.js');

describe('wrench start', () => {
  afterEach(() => {
    process.removeAllListeners('SIGTERM');
    process.removeAllListeners('SIGINT');
  });

  it('a SIGTERM while the service is still starting stops it gracefully once it is up, instead of killing it', async () => {
    const io = { stdout: vi.fn(), stderr: vi.fn() };
    const running = startCommand([], io as never);
    await new Promise((r) => setImmediate(r));
    // Without a listener installed before start-up, this signal would take Node's default action: exit at once.
    expect(process.listenerCount('SIGTERM')).toBe(1);
    process.emit('SIGTERM', 'SIGTERM');
    const logger = { info: vi.fn(), error: vi.fn() };
    started.resolve?.({ logger, stop: started.stop });
    expect(await running).toBe(0);
    expect(started.stop).toHaveBeenCalledTimes(1);
    expect(logger.info).toHaveBeenCalledWith({ signal: 'SIGTERM' }, 'received signal');
  });

  it('exits 1 when a shutdown step had to be cut short', async () => {
    const io = { stdout: vi.fn(), stderr: vi.fn() };
    const running = startCommand([], io as never);
    await new Promise((r) => setImmediate(r));
    process.emit('SIGTERM', 'SIGTERM');
    started.resolve?.({ logger: { info: vi.fn(), error: vi.fn() }, stop: async () => ({ cut: ['task worker'] }) });
    expect(await running).toBe(1);
  });

  it('a SIGTERM that stops start-up exits 0 when everything opened closed in time, 1 when a step was cut', async () => {
    for (const [cut, code] of [
      [[], 0],
      [['redis'], 1],
    ] as const) {
      const io = { stdout: vi.fn(), stderr: vi.fn() };
      const running = startCommand([], io as never);
      await new Promise((r) => setImmediate(r));
      process.emit('SIGTERM', 'SIGTERM');
      started.reject?.(new StoppedWhileStarting('SIGTERM', [...cut]));
      expect(await running).toBe(code);
      expect(io.stderr).toHaveBeenCalledWith(expect.stringMatching(/^wrench: stopped by SIGTERM while starting/));
      process.removeAllListeners('SIGTERM');
      process.removeAllListeners('SIGINT');
    }
  });
});
