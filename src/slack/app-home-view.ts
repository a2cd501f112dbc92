import type { HomeView, KnownBlock } from '@slack/types';
import type { RunSummary } from '../run-log/run-log-types.js';
import { escapeMrkdwn, mrkdwnLink, truncate } from './slack-escape.js';

const STATUS_EMOJI: Record<string, string> = {
  queued: ':hourglass_flowing_sand:',
  running: ':hammer_and_wrench:',
  pr_opened: ':white_check_mark:',
  pr_updated: ':arrows_counterclockwise:',
  answered: ':speech_balloon:',
  stopped: ':warning:',
  failed: ':x:',
  cancelled: ':no_entry_sign:',
};

export interface HomeInput {
  mine: RunSummary[];
  /** Every run of the last 7 days, for admins only. */
  week?: RunSummary[];
  runPageUrl: (id: string) => string | undefined;
}

/** Wrench's App Home for one person: their running and recent runs; for admins, this week per channel. */
export function appHomeView(input: HomeInput): HomeView {
  const running = input.mine.filter((r) => r.status === 'running' || r.status === 'queued');
  const recent = input.mine.filter((r) => !running.includes(r));
  const blocks: KnownBlock[] = [{ type: 'header', text: { type: 'plain_text', text: 'Your Wrench runs' } }];
  if (input.mine.length === 0) {
    blocks.push({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: 'No runs yet. Mention @wrench in a channel linked to a repository with a task, for example: _add a test for formatBytes in src/format.js_.',
      },
    });
  }
  if (running.length) blocks.push(sectionTitle(`Running now (${running.length})`), ...running.flatMap((r) => runBlocks(r, input.runPageUrl)));
  if (recent.length) blocks.push(sectionTitle('Recent'), ...recent.flatMap((r) => runBlocks(r, input.runPageUrl)));
  if (input.week) blocks.push({ type: 'divider' }, ...weekBlocks(input.week));
  return { type: 'home', blocks: blocks.slice(0, 100) };
}

function sectionTitle(text: string): KnownBlock {
  return { type: 'section', text: { type: 'mrkdwn', text: `*${escapeMrkdwn(text)}*` } };
}

function runBlocks(run: RunSummary, runPageUrl: HomeInput['runPageUrl']): KnownBlock[] {
  const state = run.status === 'running' || run.status === 'queued' ? run.status : (run.outcome ?? run.status);
  const title = truncate(run.instruction.split('\n')[0]!, 140);
  const page = runPageUrl(run.id);
  const details = [
    `\`${escapeMrkdwn(run.repository)}\``,
    run.channel ? `<#${run.channel}>` : '',
    run.threadUrl ? mrkdwnLink(run.threadUrl, 'thread') : '',
    run.pullRequest ? mrkdwnLink(run.pullRequest.url, `PR #${run.pullRequest.number}`) : '',
    page ? mrkdwnLink(page, 'run page') : '',
    `<!date^${Math.floor(run.startedAt / 1000)}^{date_short_pretty} {time}|${new Date(run.startedAt).toISOString()}>`,
    run.costUsd !== undefined ? `$${run.costUsd.toFixed(2)}` : '',
  ].filter(Boolean);
  return [
    { type: 'section', text: { type: 'mrkdwn', text: `${STATUS_EMOJI[state] ?? ':grey_question:'} ${page ? mrkdwnLink(page, title) : escapeMrkdwn(title)}` } },
    { type: 'context', elements: [{ type: 'mrkdwn', text: `${escapeMrkdwn(state.replace('_', ' '))} · ${details.join(' · ')}` }] },
  ];
}

function weekBlocks(week: RunSummary[]): KnownBlock[] {
  const byChannel = new Map<string, { runs: number; failed: number; cost: number }>();
  for (const run of week) {
    const key = run.channel ?? 'outside Slack';
    const row = byChannel.get(key) ?? { runs: 0, failed: 0, cost: 0 };
    row.runs++;
    if (run.outcome === 'failed') row.failed++;
    row.cost += run.costUsd ?? 0;
    byChannel.set(key, row);
  }
  const total = [...byChannel.values()].reduce((sum, row) => ({ runs: sum.runs + row.runs, cost: sum.cost + row.cost }), { runs: 0, cost: 0 });
  const rows = [...byChannel.entries()].sort((a, b) => b[1].cost - a[1].cost).slice(0, 20);
  return [
    { type: 'header', text: { type: 'plain_text', text: 'This week, all channels (admins)' } },
    { type: 'section', text: { type: 'mrkdwn', text: `*${total.runs}* runs · *$${total.cost.toFixed(2)}* model spend in the last 7 days` } },
    ...rows.map(
      ([channel, row]): KnownBlock => ({
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: `${channel.startsWith('C') || channel.startsWith('G') ? `<#${channel}>` : escapeMrkdwn(channel)}: ${row.runs} run${row.runs === 1 ? '' : 's'}${row.failed ? ` (${row.failed} failed)` : ''} · $${row.cost.toFixed(2)}`,
        },
      }),
    ),
  ];
}
