import type { HomeView, KnownBlock } from '@slack/types';
import type { RunTotals } from '../run-log/run-log-store.js';
import type { RunSummary } from '../run-log/run-log-types.js';
import { encodeHomeCancel, encodeHomeState, HOME_ACTIONS, RUN_OUTCOMES, type HomeState } from './action-ids.js';
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

export const HOME_PAGE_SIZE = 15;
const MAX_RUNNING = 10;

export interface HomeInput {
  /** The person's runs queued or working now, each with a Cancel button. */
  running: RunSummary[];
  /** One page of the person's runs (newest first, filtered by `state`) and how many match in all. */
  list: { runs: RunSummary[]; total: number };
  state: HomeState;
  /** The repositories the person has runs in, for the filter. */
  repositories: string[];
  /** A line about what the person just did (a Cancel pressed). */
  notice?: string;
  /** For admins only: the totals of this week (the last 7 UTC days) and of the 7 days before it. */
  week?: { current: RunTotals; previous: RunTotals };
  runPageUrl: (id: string) => string | undefined;
  /** The person's schedules (every schedule, for admins), each with its next run in its time zone. */
  schedules?: HomeSchedule[];
}

export interface HomeSchedule {
  id: string;
  state: 'proposed' | 'active' | 'paused';
  when: string;
  timezone: string;
  channel: string;
  instruction: string;
  /** The next run, formatted in the schedule's time zone; absent when paused. */
  next?: string;
  pausedBecause?: string;
}

/**
 * Wrench's App Home for one person: their running runs with Cancel buttons, then their runs a page at a time,
 * filtered by repository and outcome; for admins, this week per channel and person.
 */
export function appHomeView(input: HomeInput): HomeView {
  const { state, list } = input;
  const filtered = !!(state.repository || state.outcome);
  const blocks: KnownBlock[] = [{ type: 'header', text: { type: 'plain_text', text: 'Your Wrench runs' } }];
  if (input.notice) blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: escapeMrkdwn(input.notice) }] });
  if (list.total === 0 && !filtered && input.running.length === 0) {
    blocks.push({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: 'No runs yet. Mention @wrench in a channel linked to a repository with a task, for example: _add a test for formatBytes in src/format.js_.',
      },
    });
  }
  if (input.running.length) {
    blocks.push(sectionTitle(`Running now (${input.running.length})`));
    for (const run of input.running.slice(0, MAX_RUNNING)) blocks.push(...runBlocks(run, input.runPageUrl), ...cancelButton(run));
  }
  if (input.schedules?.length) blocks.push(...scheduleBlocks(input.schedules));
  if (list.total > 0 || filtered) {
    const first = state.page * HOME_PAGE_SIZE;
    const range = list.runs.length ? `${first + 1}–${first + list.runs.length} of ${list.total}` : `none of ${list.total}`;
    blocks.push(sectionTitle(`${filtered ? 'Matching runs' : 'All your runs'}, newest first (${range})`), filterBlock(input));
    if (list.runs.length === 0) blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: 'No runs match these filters.' }] });
    blocks.push(...list.runs.flatMap((r) => runBlocks(r, input.runPageUrl)), ...pageButtons(state, list.total));
  }
  if (input.week) blocks.push({ type: 'divider' }, ...weekBlocks(input.week));
  return { type: 'home', private_metadata: encodeHomeState(state), blocks: blocks.slice(0, 100) };
}

function cancelButton(run: RunSummary): KnownBlock[] {
  if (!run.channel || !run.threadTs) return [];
  return [
    {
      type: 'actions',
      elements: [
        {
          type: 'button',
          action_id: HOME_ACTIONS.cancel,
          text: { type: 'plain_text', text: 'Cancel' },
          style: 'danger',
          value: encodeHomeCancel({ channel: run.channel, threadTs: run.threadTs, jobId: run.id }),
          confirm: {
            title: { type: 'plain_text', text: 'Cancel this run?' },
            text: { type: 'plain_text', text: 'It stops before its next step; work it already pushed stays on its branch.' },
            confirm: { type: 'plain_text', text: 'Cancel the run' },
            deny: { type: 'plain_text', text: 'Keep it running' },
          },
        },
      ],
    },
  ];
}

function filterBlock(input: HomeInput): KnownBlock {
  const option = (value: string, label: string) => ({ text: { type: 'plain_text' as const, text: truncate(label, 75) }, value });
  const allRepositories = option('*', 'All repositories');
  const allOutcomes = option('*', 'All outcomes');
  const repositories = [allRepositories, ...input.repositories.slice(0, 99).map((r) => option(r, r))];
  const outcomes = [allOutcomes, ...Object.entries(RUN_OUTCOMES).map(([value, label]) => option(value, label))];
  const selected = (options: ReturnType<typeof option>[], value: string | undefined, all: ReturnType<typeof option>) =>
    options.find((o) => o.value === (value ?? '*')) ?? all;
  return {
    type: 'actions',
    elements: [
      {
        type: 'static_select',
        action_id: HOME_ACTIONS.repository,
        placeholder: { type: 'plain_text', text: 'Repository' },
        options: repositories,
        initial_option: selected(repositories, input.state.repository, allRepositories),
      },
      {
        type: 'static_select',
        action_id: HOME_ACTIONS.outcome,
        placeholder: { type: 'plain_text', text: 'Outcome' },
        options: outcomes,
        initial_option: selected(outcomes, input.state.outcome, allOutcomes),
      },
    ],
  };
}

function pageButtons(state: HomeState, total: number): KnownBlock[] {
  const pages = Math.ceil(total / HOME_PAGE_SIZE);
  const button = (text: string, page: number) => ({
    type: 'button' as const,
    action_id: `${HOME_ACTIONS.page}_${page}`,
    text: { type: 'plain_text' as const, text },
    value: String(page),
  });
  const elements = [...(state.page > 0 ? [button('← Newer', state.page - 1)] : []), ...(state.page + 1 < pages ? [button('Older →', state.page + 1)] : [])];
  return elements.length
    ? [
        { type: 'context', elements: [{ type: 'mrkdwn', text: `Page ${state.page + 1} of ${pages}` }] },
        { type: 'actions', elements },
      ]
    : [];
}

const MAX_SCHEDULES = 15;

/** Each schedule: its number, state and when, its next run (or why it is paused), where and what it runs. */
function scheduleBlocks(schedules: HomeSchedule[]): KnownBlock[] {
  const lines = schedules.slice(0, MAX_SCHEDULES).map((s) => {
    const status =
      s.state === 'active'
        ? `next run ${s.next ?? 'unknown'}`
        : s.state === 'paused'
          ? `paused${s.pausedBecause ? `: ${s.pausedBecause}` : ''}`
          : 'waiting for confirmation';
    return `:repeat: *${escapeMrkdwn(s.id)}* _${escapeMrkdwn(s.when)}_ (${escapeMrkdwn(s.timezone)}) in <#${s.channel}> · ${status}\n${escapeMrkdwn(truncate(s.instruction, 200))}`;
  });
  return [
    sectionTitle(`Schedules (${schedules.length})`),
    ...lines.map((text): KnownBlock => ({ type: 'section', text: { type: 'mrkdwn', text } })),
    {
      type: 'context',
      elements: [{ type: 'mrkdwn', text: 'Change one in its channel: `@wrench pause schedule N`, `resume schedule N`, `delete schedule N`.' }],
    },
  ];
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
