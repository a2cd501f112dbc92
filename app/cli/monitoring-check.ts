import type { Config } from '../../src/config/load-config.js';
import { connectMcpServers } from '../../src/agent/tools/mcp-tools.js';
import { describeError } from '../../src/errors.js';
import { expandMonitoringSource } from '../../src/monitoring/monitoring-config.js';
import { PrometheusClient } from '../../src/monitoring/prometheus-client.js';

export interface MonitoringCheckResult {
  name: string;
  ok: boolean;
  detail: string;
  fix?: string;
  skipped?: boolean;
}

export interface MonitoringCheckOptions {
  timeoutMs?: number;
  /** Where `${VAR}` is taken from, as a triage would (default: Wrench's environment). */
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Probes every source under `monitoring:` as a triage would use it: its `${VAR}` and `${file:…}` substituted,
 * its Prometheus answering a query (`vector(1)`), each MCP server started or reached and offering its listed
 * tools. One line per problem, naming `monitoring.<name>`.
 */
export async function checkMonitoringSources(config: Config, options: MonitoringCheckOptions = {}): Promise<MonitoringCheckResult> {
  const sources = Object.entries(config.file.monitoring);
  if (sources.length === 0) return { name: 'Monitoring', ok: true, skipped: true, detail: 'off (no monitoring: sources)' };
  const timeoutMs = options.timeoutMs ?? 10_000;
  const problems: string[] = [];
  const seen: string[] = [];
  await Promise.all(
    sources.map(async ([name, configured]) => {
      let source: ReturnType<typeof expandMonitoringSource>;
      try {
        source = expandMonitoringSource(name, configured, options.env ?? process.env);
      } catch (error) {
        problems.push(describeError(error));
        return;
      }
      const parts: string[] = [];
      if (source.prometheus) {
        try {
          await new PrometheusClient({ name, url: source.prometheus.url, headers: source.prometheus.headers }, { timeoutMs }).queryInstant('vector(1)');
          parts.push('Prometheus answers');
        } catch (error) {
          problems.push(`monitoring.${name}.prometheus: ${describeError(error)}`);
        }
      }
      if (Object.keys(source.mcpServers).length > 0) {
        const mcp = await connectMcpServers(source.mcpServers, { connectTimeoutMs: timeoutMs, source: name });
        await mcp.close();
        problems.push(...mcp.unreadable.map((line) => `monitoring.${name}: ${line}`));
        parts.push(`${mcp.tools.length} MCP tool(s)`);
      }
      seen.push(`${name} (${parts.join(', ') || 'nothing to read'})`);
    }),
  );
  if (problems.length > 0) {
    return {
      name: 'Monitoring',
      ok: false,
      detail: problems.sort().join('\n      '),
      fix: 'Fix the named source in wrench.config.yml or its environment; a triage goes on without what it cannot read',
    };
  }
  return { name: 'Monitoring', ok: true, detail: seen.sort().join('; ') };
}
