import type { Logger } from '../src/logging/logger.js';
import { openTriageMonitoring, type TriageMonitoring } from '../src/monitoring/triage-monitoring.js';
import type { RepositoryChanges } from '../src/triage/repository-changes.js';
import type { TriageDeps } from './triage-deps.js';

/**
 * The triage's monitoring evidence (metrics around the incident start, their change points next to the
 * window's commits, the query_metrics and MCP tools), for the service's or the channel's `monitoring:` source.
 * Undefined when neither has one; never fails the triage (what could not be read is in its summary).
 */
export async function readTriageMonitoring(
  where: { serviceId?: string; channel: string; incidentStart: Date; alerts: readonly unknown[]; changes: RepositoryChanges },
  deps: Pick<TriageDeps, 'config'>,
  log: Logger,
  env: NodeJS.ProcessEnv = process.env,
): Promise<TriageMonitoring | undefined> {
  try {
    const monitoring = await openTriageMonitoring({ file: deps.config.file, env, ...where });
    if (monitoring) {
      log.info(
        {
          source: monitoring.summary.source,
          changes: monitoring.summary.changes.length,
          unreadable: monitoring.summary.unreadable,
          tools: monitoring.tools.map((t) => t.name),
        },
        'monitoring evidence read',
      );
    }
    return monitoring;
  } catch (error) {
    log.warn({ err: error }, 'could not read the monitoring evidence');
    return undefined;
  }
}

/**
 * The chart of the main series, with the suspects marked, shared in the thread after the report (through the
 * thread's outbox, so it arrives after the report and waits out a Slack outage); a failure is logged, never fatal.
 */
export async function postTriageChart(
  monitoring: TriageMonitoring | undefined,
  suspects: readonly { sha: string }[],
  thread: { channel: string; threadTs: string },
  deps: Pick<TriageDeps, 'outbox'>,
  log: Logger,
): Promise<void> {
  if (!monitoring) return;
  try {
    const chart = await monitoring.chart(suspects);
    if (!chart) return;
    await deps.outbox.upload(
      thread,
      [
        {
          filename: `${chart.title.replace(/[^A-Za-z0-9_-]+/g, '-')}.png`,
          title: chart.title,
          altText: chart.altText.slice(0, 1000),
          content: chart.png,
          kind: 'image',
        },
      ],
      chart.comment,
    );
  } catch (error) {
    log.warn({ err: error }, 'could not post the metric chart');
  }
}
