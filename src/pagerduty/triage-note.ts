import { type MonitoringSummary, metricChangeLine } from '../monitoring/monitoring-summary.js';
import { commitUrl, evidenceSource, evidenceUrl, type RepoLinks } from '../triage/evidence-links.js';
import type { Suspect } from '../triage/triage-record.js';
import type { ShownTriageReport } from '../triage/triage-report.js';

/** Every note Wrench writes starts with this, so its own notes are recognised when PagerDuty echoes them back. */
export const NOTE_MARKER = '[Wrench]';

const MAX_NOTE = 2500;

export const isWrenchNoteContent = (content: string) => content.trimStart().startsWith(NOTE_MARKER);

/** A concise plain-text summary of a triage for the incident's notes, with a link to the Slack thread. */
export function triageNote(input: {
  report: ShownTriageReport;
  suspects: Suspect[];
  repository: string;
  threadUrl?: string;
  retriage?: boolean;
  /** For links to commits and metric graphs. */
  links?: RepoLinks;
  monitoring?: MonitoringSummary;
}): string {
  const links = input.links ?? {};
  const { report } = input;
  const lines = [`${NOTE_MARKER} ${input.retriage ? 'Re-triage' : 'Automated triage'} of ${input.repository} (read-only investigation)`];
  if (input.threadUrl) lines.push(`Details, evidence and actions in Slack: ${input.threadUrl}`);
  lines.push(`Verdict (the agent's reading): ${clip(report.verdict, 200)}`);
  const cause = report.likelyCause;
  if (!cause) lines.push('No good lead: no evidence points at a cause yet.');
  else if (cause.hypothesis) lines.push(`Hypothesis (the agent's; no supporting evidence, low confidence): ${clip(cause.summary, 800)}`);
  else {
    lines.push(`Likely cause (the agent's reading, ${cause.confidence} confidence): ${clip(cause.summary, 800)}`);
    // Metric and log evidence says what was read and where; commits and files link to the repository.
    for (const item of cause.evidence.slice(0, 5)) {
      const url = evidenceUrl(item, links);
      const source = evidenceSource(item);
      lines.push(`- ${item.kind}: ${clip(item.claim, 200)} (${clip(item.ref, 120)}${source ? `; ${clip(source, 300)}` : ''})${url ? ` ${url}` : ''}`);
    }
  }
  for (const change of input.monitoring?.changes.slice(0, 3) ?? []) {
    const commit = change.commit ? (change.commit.url ?? commitUrl(links, change.commit.sha)) : undefined;
    lines.push(
      `Metric (measured by Wrench): ${clip(metricChangeLine(change), 700)}${change.graphUrl ? ` Graph: ${change.graphUrl}` : ''}${commit ? ` Commit: ${commit}` : ''}`,
    );
  }
  for (const rule of input.monitoring?.rules?.slice(0, 2) ?? []) {
    lines.push(`Alerting rule (read from Prometheus): ${clip(rule.name, 100)} (${rule.state})${rule.graphUrl ? ` Graph: ${rule.graphUrl}` : ''}`);
  }
  if (input.suspects.length > 0) {
    lines.push(
      `Suspect commits (ranked by the agent): ${input.suspects
        .slice(0, 3)
        .map((s) => `${s.sha.slice(0, 7)}${s.subject ? ` "${clip(s.subject, 80)}"` : ''}`)
        .join('; ')}`,
    );
  }
  if (report.nextSteps.length > 0)
    lines.push(
      `Next steps (the agent's suggestions): ${report.nextSteps
        .slice(0, 3)
        .map((s, i) => `${i + 1}) ${clip(s, 200)}`)
        .join(' ')}`,
    );
  if (input.monitoring && input.monitoring.unreadable.length > 0) lines.push(`Could not read: ${clip(input.monitoring.unreadable.join('; '), 600)}`);
  const text = lines.join('\n');
  return text.length > MAX_NOTE ? `${text.slice(0, MAX_NOTE - 1)}…` : text;
}

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
