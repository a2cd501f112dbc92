import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { freePort } from './free-port.js';
import { makeTempDir } from './temp-dir.js';

export interface PrometheusScraper {
  url: string;
  /** An instant query through the HTTP API: the first sample's value, or undefined when nothing matches. */
  query(expression: string): Promise<number | undefined>;
  stop(): Promise<void>;
}

/** The real Prometheus (/usr/bin/prometheus) scraping one target every second, with an optional bearer token. */
export async function startPrometheusScraper(
  target: { host: string; path: string; bearerToken?: string },
  binary = '/usr/bin/prometheus',
): Promise<PrometheusScraper> {
  const dir = await makeTempDir('wrench-prometheus-');
  const port = await freePort();
  const config = [
    'global: { scrape_interval: 1s, evaluation_interval: 1s }',
    'scrape_configs:',
    '  - job_name: wrench',
    `    metrics_path: ${target.path}`,
    ...(target.bearerToken ? ['    authorization:', `      credentials: ${target.bearerToken}`] : []),
    `    static_configs: [ { targets: ["${target.host}"] } ]`,
  ].join('\n');
  await writeFile(path.join(dir.path, 'prometheus.yml'), config);
  const child = spawn(
    binary,
    [`--config.file=${path.join(dir.path, 'prometheus.yml')}`, `--storage.tsdb.path=${path.join(dir.path, 'data')}`, `--web.listen-address=127.0.0.1:${port}`],
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
    async query(expression) {
      const response = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(expression)}`);
      const body = (await response.json()) as { data?: { result?: Array<{ value: [number, string] }> } };
      const first = body.data?.result?.[0];
      return first ? Number(first.value[1]) : undefined;
    },
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
