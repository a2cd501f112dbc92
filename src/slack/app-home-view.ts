import type { HomeView, KnownBlock } from '@slack/types';
import type { RunTotals } from '../run-log/run-log-store.js';
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
  /** For admins only: the totals of this week (the last 7 UTC days) and of the 7 days before it. */
  week?: { current: RunTotals; previous: RunTotals };
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
  const title = truncate(run.instruction.split('\n')[0] ?? '', 140);
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

const ROWS = 15;
const dollars = (micros: number) => `$${(micros / 1e6).toFixed(2)}`;
const plural = (n: number, word: string, words = `${word}s`) => `${n.toLocaleString('en')} ${n === 1 ? word : words}`;

function weekBlocks({ current, previous }: { current: RunTotals; previous: RunTotals }): KnownBlock[] {
  const change = (now: number, before: number) => (before === 0 ? 'n/a' : `${now >= before ? '+' : ''}${Math.round(((now - before) / before) * 100)}%`);
  const section = (text: string): KnownBlock => ({ type: 'section', text: { type: 'mrkdwn', text } });
  const rows = (map: RunTotals['byChannel'], label: (key: string) => string, noun: [string, string]): KnownBlock[] => {
    const sorted = [...map.entries()].sort((a, b) => b[1].costMicros - a[1].costMicros || b[1].runs - a[1].runs);
    const shown = sorted
      .slice(0, ROWS)
      .map(([key, row]) => `${label(key)}: ${plural(row.runs, 'run')}${row.failed ? ` (${row.failed} failed)` : ''} · ${dollars(row.costMicros)}`);
    if (sorted.length > ROWS) shown.push(`_…and ${plural(sorted.length - ROWS, `more ${noun[0]}`, `more ${noun[1]}`)}_`);
    return shown.length ? [section(shown.join('\n'))] : [];
  };
  return [
    { type: 'header', text: { type: 'plain_text', text: 'This week, all channels (admins)' } },
    section(
      `*${current.runs.toLocaleString('en')}* runs · *${dollars(current.costMicros)}* model spend in the last 7 days\n` +
        `Week before: ${plural(previous.runs, 'run')} · ${dollars(previous.costMicros)} · change: runs ${change(current.runs, previous.runs)}, spend ${change(current.costMicros, previous.costMicros)}`,
    ),
    sectionTitle('By channel'),
    ...rows(current.byChannel, (c) => (/^[CG][A-Z0-9]+$/.test(c) ? `<#${c}>` : escapeMrkdwn(c || 'outside Slack')), ['channel', 'channels']),
    sectionTitle('By person'),
    ...rows(current.byPerson, (u) => (/^[UW][A-Z0-9]+$/.test(u) ? `<@${u}>` : escapeMrkdwn(u)), ['person', 'people']),
  ];
}
