import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { WrenchError } from '../errors.js';
import { metrics } from '../metrics/metrics.js';
import { hostPidPressureHigh } from './host-pid-pressure.js';
import { killProcessTree } from './kill-process-tree.js';
import { OutputCapture } from './output-capture.js';
import { createPidsCgroup, type PidsCgroup } from './pids-cgroup.js';
import type { ExecResult } from './sandbox.js';

/** After the command exits, how long to wait for its pipes to drain. */
const DRAIN_GRACE_MS = 2_000;
const PRESSURE_POLL_MS = 250;
const JOIN_CGROUP = 'echo $$ > "$0/cgroup.procs" 2>/dev/null; exec "$@"';

export interface CapturedRunOptions {
  file: string;
  args: readonly string[];
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
  maxOutputChars?: number;
  /** Cap on tasks through a pids cgroup when the host offers one (it also lets every process be killed). */
  maxProcesses?: number;
}

/**
 * Run a program detached in its own process group with stdin closed, capture stdout and stderr
 * into one bounded buffer, and kill everything it started on timeout, abort, or exit.
 */
export async function runCaptured(options: CapturedRunOptions): Promise<ExecResult> {
  if (options.signal?.aborted) return { output: '', exitCode: null, timedOut: false, aborted: true, elidedChars: 0, durationMs: 0 };
  const cgroup = options.maxProcesses ? await createPidsCgroup(options.maxProcesses) : null;
  try {
    return await runIn(cgroup, options);
  } finally {
    await cgroup?.remove();
  }
}

function runIn(cgroup: PidsCgroup | null, options: CapturedRunOptions): Promise<ExecResult> {
  const [file, args] = cgroup ? ['/bin/sh', ['-c', JOIN_CGROUP, cgroup.dir, options.file, ...options.args]] : [options.file, [...options.args]];
  const started = performance.now();
  const capture = new OutputCapture(options.maxOutputChars);
  const child = spawn(file, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });

  let timedOut = false;
  let aborted = false;
  let pressureKilled = false;
  const killAll = async () => {
    if (child.pid) killProcessTree(child.pid);
    await cgroup?.killAll();
  };

  for (const stream of [child.stdout, child.stderr]) {
    const decoder = new StringDecoder('utf8');
    stream.on('data', (chunk: Buffer) => capture.push(decoder.write(chunk)));
    stream.on('end', () => capture.push(decoder.end()));
  }

  return new Promise<ExecResult>((resolve, reject) => {
    const timer = setTimeout(
      () => {
        timedOut = true;
        void killAll();
      },
      Math.max(0, options.timeoutMs),
    );
    const pressure = cgroup
      ? undefined
      : setInterval(() => {
          if (!hostPidPressureHigh()) return;
          pressureKilled = true;
          void killAll();
        }, PRESSURE_POLL_MS);
    const onAbort = () => {
      aborted = true;
      void killAll();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) onAbort();
    const stopWatching = () => {
      clearTimeout(timer);
      if (pressure) clearInterval(pressure);
      options.signal?.removeEventListener('abort', onAbort);
    };

    child.once('error', (error) => {
      if (child.pid !== undefined) return;
      stopWatching();
      metrics.sandboxFailures.inc({ reason: 'spawn_failed' });
      reject(new WrenchError('sandbox_spawn_failed', `Could not start ${options.file}: ${error.message}`, { cause: error }));
    });

    child.once('exit', (code) => {
      const durationMs = Math.round(performance.now() - started);
      stopWatching();
      void killAll().then(async () => {
        await drained(child.stdout, child.stderr);
        if (timedOut) metrics.sandboxFailures.inc({ reason: 'timeout' });
        if (pressureKilled) metrics.sandboxFailures.inc({ reason: 'process_limit' });
        if (pressureKilled) capture.push("\n[sandbox: killed because the host's process table is nearly full]\n");
        const { output, elidedChars } = capture.result();
        resolve({ output, exitCode: code, timedOut, aborted, elidedChars, durationMs });
      });
    });
  });
}

async function drained(...streams: NodeJS.ReadableStream[]): Promise<void> {
  const ends = streams.map(
    (stream) =>
      new Promise<void>((resolve) => {
        const readable = stream as NodeJS.ReadableStream & { readableEnded?: boolean; destroyed?: boolean };
        if (readable.readableEnded || readable.destroyed) return resolve();
        stream.once('end', () => resolve());
        stream.once('close', () => resolve());
      }),
  );
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, DRAIN_GRACE_MS);
  });
  await Promise.race([Promise.all(ends), grace]);
  clearTimeout(timer);
  for (const stream of streams) (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
}
