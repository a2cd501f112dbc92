import type { KnownBlock } from '@slack/types';
import { changeTime, liveText, type MonitoringSummary, shortNumber, utcTime } from '../monitoring/monitoring-summary.js';
import { commitUrl, evidenceSource, evidenceUrl, type RepoLinks } from '../triage/evidence-links.js';
import type { Suspect } from '../triage/triage-record.js';
import type { ShownTriageReport } from '../triage/triage-report.js';
import { escapeMrkdwn, mrkdwnLink, truncate } from './slack-escape.js';
import { splitForSlack, type SlackMessagePart } from './split-message.js';
import { stringsFor } from './strings/index.js';
import { encodeTriageValue, TRIAGE_ACTIONS } from './triage-action-ids.js';

export interface TriageReportView {
  triageId: string;
  /** e.g. "Incident #1234 on acme/checkout" or "acme/checkout". */
  subject: string;
  report: ShownTriageReport;
  suspects: Suspect[];
  links: RepoLinks;
  baseBranch: string;
  /** Tokens, cost, duration: a context line at the end. */
  usage?: string;
  /** Change points of the monitoring source's metrics, and what could not be read. */
  monitoring?: MonitoringSummary;
  /** Buttons are left out once the report is dismissed. */
  withActions?: boolean;
  /** The language the person asked for the triage in; English for an incident's own triage (and the metrics' lines). */
  language?: string;
}

/** How many suspects get a "Revert" button. */
export const REVERT_BUTTONS = 3;

/** The report as mrkdwn: every text from the model or the incident is escaped; links are built by Wrench. */
export function triageReportMrkdwn(view: TriageReportView): string {
  const { report, links } = view;
  const t = stringsFor(view.language).triage;
  const lines: string[] = [
    t.reportOf(escapeMrkdwn(view.subject)),
    `${t.verdict} ${escapeMrkdwn(report.verdict)}`,
    '',
    t.whatIsGoingOn,
    escapeMrkdwn(report.whatIsGoingOn),
  ];
  const cause = report.likelyCause;
  lines.push('');
  if (!cause) {
    lines.push(t.noGoodLead);
  } else if (cause.hypothesis) {
    lines.push(t.hypothesis, escapeMrkdwn(cause.summary));
  } else {
    lines.push(t.likelyCause(t.confidence[cause.confidence] ?? cause.confidence), escapeMrkdwn(cause.summary));
    lines.push('', t.evidence);
    for (const item of cause.evidence) {
      const url = evidenceUrl(item, links);
      const source = evidenceSource(item);
      lines.push(
        `• ${escapeMrkdwn(item.claim)} — ${url ? mrkdwnLink(url, item.ref) : `\`${escapeMrkdwn(item.ref).replace(/`/g, "'")}\``}${source ? ` _(${escapeMrkdwn(truncate(source, 400))})_` : ''}`,
      );
    }
  }
  if (view.monitoring) lines.push(...monitoringLines(view.monitoring, links));
  if (view.suspects.length > 0) {
    lines.push('', t.suspectCommits(`\`${escapeMrkdwn(view.baseBranch)}\``));
    view.suspects.forEach((suspect, i) => {
      const short = suspect.sha.slice(0, 7);
      const ref = mrkdwnLink(commitUrl(links, suspect.sha), short);
      const subject = suspect.subject ? ` ${escapeMrkdwn(truncate(suspect.subject, 120))}` : '';
      const missing = suspect.resolved ? '' : ` ${t.notOnBaseBranch}`;
      lines.push(`${i + 1}. ${ref}${subject} — ${escapeMrkdwn(suspect.reason)} (${t.confidence[suspect.confidence] ?? suspect.confidence})${missing}`);
    });
  }
  if (report.ruledOut.length > 0) {
    lines.push('', t.ruledOut);
    for (const item of report.ruledOut) lines.push(`• ${escapeMrkdwn(item.what)}: ${escapeMrkdwn(item.why)}`);
  }
  if (report.nextSteps.length > 0) {
    lines.push('', t.nextSteps);
    for (const [i, step] of report.nextSteps.entries()) lines.push(`${i + 1}. ${escapeMrkdwn(step)}`);
  }
  if (view.monitoring && view.monitoring.unreadable.length > 0) {
    lines.push('', t.couldNotRead);
    for (const item of view.monitoring.unreadable) lines.push(`• ${escapeMrkdwn(truncate(item, 400))}`);
  }
  return lines.join('\n');
}

/** The metrics around the incident: each change point, its graph, the last commit and merged PR before it, and those inside its onset. */
function monitoringLines(monitoring: MonitoringSummary, links: RepoLinks): string[] {
  if (monitoring.changes.length === 0 && monitoring.steady.length === 0 && !monitoring.rules?.length && !monitoring.recurring?.length) return [];
  const placed = monitoring.placedBy && monitoring.placedBy !== 'commit times' ? `; changes placed by ${monitoring.placedBy}` : '';
  const lines = [
    '',
    `*Metrics around the incident* (measured by Wrench, ${utcTime(monitoring.window.start)} to ${utcTime(monitoring.window.end)}${escapeMrkdwn(placed)})`,
  ];
  for (const change of monitoring.changes) {
    const labels = Object.entries(change.labels)
      .map(([key, value]) => `${key}=${value}`)
      .join(',');
    const name = `${change.name}${labels ? ` {${labels}}` : ''}`;
    let line = `• ${mrkdwnLink(change.graphUrl, name)} changed at *${changeTime(change)}*: ${shortNumber(change.before)} → ${shortNumber(change.after)}`;
    if (change.commit) {
      const url = change.commit.url ?? commitUrl(links, change.commit.sha);
      const deployed = change.commit.deployedAt ? ` (${escapeMrkdwn(liveText(change.commit))} ${utcTime(Date.parse(change.commit.deployedAt) / 1000)})` : '';
      line += ` · ${change.commit.deployedAt ? 'last commit deployed before' : 'last commit before'}: ${mrkdwnLink(url, change.commit.sha.slice(0, 7))} ${escapeMrkdwn(truncate(change.commit.subject, 100))}${deployed}`;
    }
    if (change.pull)
      line += ` · last PR merged before: ${mrkdwnLink(change.pull.url, `#${change.pull.number}`)} ${escapeMrkdwn(truncate(change.pull.title, 100))}`;
    const inside = [
      ...(change.candidates ?? []).map(
        (commit) =>
          `${mrkdwnLink(commit.url ?? commitUrl(links, commit.sha), commit.sha.slice(0, 7))} ${escapeMrkdwn(truncate(commit.subject, 80))}${commit.why ? ` (${escapeMrkdwn(commit.why)})` : ''}`,
      ),
      ...(change.pullCandidates ?? []).map(
        (pull) => `${mrkdwnLink(pull.url, `#${pull.number}`)} ${escapeMrkdwn(truncate(pull.title, 80))}${pull.why ? ` (${escapeMrkdwn(pull.why)})` : ''}`,
      ),
    ];
    if (inside.length > 0) line += ` · landed while it began, any may be the cause, nearest first: ${inside.slice(0, 5).join(', ')}`;
    lines.push(line);
  }
  for (const change of monitoring.recurring ?? []) {
    lines.push(
      `• ${mrkdwnLink(change.graphUrl, change.name)} changed at ${utcTime(change.at)} (${shortNumber(change.before)} → ${shortNumber(change.after)}) as it did a week earlier (${utcTime(change.weekEarlierAt)}): a recurring pattern, not counted as a change`,
    );
  }
  if (monitoring.steady.length > 0) lines.push(`• no change point in: ${escapeMrkdwn(monitoring.steady.join(', '))}`);
  for (const rule of monitoring.rules ?? []) {
    lines.push(
      `• alerting rule ${mrkdwnLink(rule.graphUrl, rule.name)} (${escapeMrkdwn(rule.state)}${rule.activeAt ? ` since ${utcTime(Date.parse(rule.activeAt) / 1000)}` : ''}): \`${escapeMrkdwn(truncate(rule.query, 200))}\``,
    );
  }
  return lines;
}

/** "Open fix PR", one "Revert <sha>" per top suspect (with a confirmation), "Dismiss". Approvers only. */
export function triageActions(view: Pick<TriageReportView, 'triageId' | 'suspects' | 'baseBranch' | 'language'>): KnownBlock[] {
  const reverts = view.suspects.filter((s) => s.resolved).slice(0, REVERT_BUTTONS);
  const strings = stringsFor(view.language);
  const t = strings.triage;
  return [
    {
      type: 'actions',
      block_id: 'wrench_triage_actions',
      elements: [
        {
          type: 'button',
          action_id: TRIAGE_ACTIONS.openFixPr,
          text: { type: 'plain_text', text: t.openFixPr },
          style: 'primary',
          value: encodeTriageValue({ triageId: view.triageId }),
        },
        ...reverts.map((suspect, i) => ({
          type: 'button' as const,
          action_id: `${TRIAGE_ACTIONS.revert}:${i}`,
          text: { type: 'plain_text' as const, text: t.revert(suspect.sha.slice(0, 7)) },
          style: 'danger' as const,
          value: encodeTriageValue({ triageId: view.triageId, sha: suspect.sha }),
          confirm: {
            title: { type: 'plain_text' as const, text: truncate(t.revertQuestion(suspect.sha.slice(0, 7)), 100) },
            text: { type: 'plain_text' as const, text: truncate(t.revertExplained(suspect.sha.slice(0, 7), view.baseBranch), 300) },
            confirm: { type: 'plain_text' as const, text: t.openRevertPr },
            deny: { type: 'plain_text' as const, text: strings.cancel },
          },
        })),
        {
          type: 'button',
          action_id: TRIAGE_ACTIONS.dismiss,
          text: { type: 'plain_text', text: t.dismiss },
          value: encodeTriageValue({ triageId: view.triageId }),
        },
      ],
    },
    { type: 'context', elements: [{ type: 'mrkdwn', text: t.approversOnly }] },
  ];
}

/** The report split within Slack's limits; the last part carries the usage line and the buttons. */
export function renderTriageReport(view: TriageReportView): SlackMessagePart[] {
  const parts = splitForSlack(triageReportMrkdwn(view));
  const t = stringsFor(view.language).triage;
  const tail: KnownBlock[] = [
    ...(view.usage ? [{ type: 'context' as const, elements: [{ type: 'mrkdwn' as const, text: escapeMrkdwn(view.usage) }] }] : []),
    ...(view.withActions === false ? [] : triageActions(view)),
  ];
  const last = parts[parts.length - 1];
  if (last && last.blocks.length + tail.length <= 50) last.blocks.push(...tail);
  else if (tail.length > 0) parts.push({ text: t.actions, blocks: tail });
  return parts.map((part, i) =>
    i === 0 ? { ...part, text: truncate(t.reportSummary(escapeMrkdwn(view.subject), escapeMrkdwn(view.report.verdict)), 3000) } : part,
  );
}
