import { execFile, spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.js';
import { makeTempDir, type TempDir } from './temp-dir.js';

/** The real Prometheus (Debian's /usr/bin/prometheus) on a free loopback port, for tests. */
export interface PrometheusServer {
  url: string;
  /** An instant query through the HTTP API: the first sample's value, or undefined when nothing matches. */
  query(expression: string): Promise<number | undefined>;
  stop(): Promise<void>;
}

/** Prometheus scraping one target (or several: `host` a list) every second, with an optional bearer token. */
export async function startPrometheusScraper(target: { host: string | string[]; path: string; bearerToken?: string }): Promise<PrometheusServer> {
  const hosts = (Array.isArray(target.host) ? target.host : [target.host]).map((host) => JSON.stringify(host));
  const dir = await makeTempDir('wrench-prometheus-');
  const config = [
    'global: { scrape_interval: 1s, evaluation_interval: 1s }',
    'scrape_configs:',
    '  - job_name: wrench',
    `    metrics_path: ${target.path}`,
    ...(target.bearerToken ? ['    authorization:', `      credentials: ${target.bearerToken}`] : []),
    `    static_configs: [ { targets: [${hosts.join(', ')}] } ]`,
  ].join('\n');
  return launch(dir, config, path.join(dir.path, 'data'));
}

/**
 * Prometheus serving history loaded through `promtool tsdb create-blocks-from openmetrics`. `openMetrics` is the
 * text exposition (timestamps in seconds, ending in `# EOF`); pick timestamps hours in the past so the blocks are
 * older than the head. `rules` is a rule file (YAML) Prometheus evaluates every second.
 */
export async function startBackfilledPrometheus(openMetrics: string, options: { rules?: string } = {}): Promise<PrometheusServer> {
  const dir = await makeTempDir('wrench-prometheus-history-');
  const data = path.join(dir.path, 'data');
  await mkdir(data);
  await writeFile(path.join(dir.path, 'history.om'), openMetrics);
  await promisify(execFile)('promtool', ['tsdb', 'create-blocks-from', 'openmetrics', path.join(dir.path, 'history.om'), data]);
  if (!options.rules) return launch(dir, 'global: { scrape_interval: 1m }\n', data);
  // Alerting rules (a rule file's YAML), evaluated every second.
  await writeFile(path.join(dir.path, 'rules.yml'), options.rules);
  return launch(dir, `global: { scrape_interval: 1m, evaluation_interval: 1s }\nrule_files: [${JSON.stringify(path.join(dir.path, 'rules.yml'))}]\n`, data);
}

async function launch(dir: TempDir, config: string, data: string): Promise<PrometheusServer> {
  await writeFile(path.join(dir.path, 'prometheus.yml'), config);
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
  const ready = () =>
    fetch(`${url}/-/ready`).then(
      (r) => r.ok,
      () => false,
    );
  const deadline = Date.now() + 30_000;
  while (!(await ready())) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      await dir.remove();
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
