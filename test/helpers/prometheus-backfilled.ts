import { execFile, spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.js';
import { makeTempDir } from './temp-dir.js';

export interface BackfilledPrometheus {
  url: string;
  stop(): Promise<void>;
}

/**
 * The real Prometheus serving history loaded through `promtool tsdb create-blocks-from openmetrics`.
 * `openMetrics` is the text exposition (timestamps in seconds, ending in `# EOF`); pick timestamps hours
 * in the past so the blocks are older than the head.
 */
export async function startBackfilledPrometheus(openMetrics: string): Promise<BackfilledPrometheus> {
  const dir = await makeTempDir('wrench-prometheus-history-');
  const data = path.join(dir.path, 'data');
  await mkdir(data);
  await writeFile(path.join(dir.path, 'history.om'), openMetrics);
  await promisify(execFile)('promtool', ['tsdb', 'create-blocks-from', 'openmetrics', path.join(dir.path, 'history.om'), data]);
  await writeFile(path.join(dir.path, 'prometheus.yml'), 'global: { scrape_interval: 1m }\n');
  const port = await freePort();
  const child = spawn(
    '/usr/bin/prometheus',
    [`--config.file=${path.join(dir.path, 'prometheus.yml')}`, `--storage.tsdb.path=${data}`, `--web.listen-address=127.0.0.1:${port}`],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let log = '';
  child.stderr.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4000)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  while (
    !(await fetch(`${url}/-/ready`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`prometheus did not become ready:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    async stop() {
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
      await dir.remove();
    },
  };
}
