import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../../../src/run-log/run-log-types.js';
import { decodeHomeCancel, decodeHomeState, HOME_ACTIONS } from '../../../src/slack/action-ids.js';
import { appHomeView } from '../../../src/slack/app-home-view.js';

const run = (over: Partial<RunSummary>): RunSummary => ({
  id: 'r1',
  repository: 'acme/web',
  instruction: 'fix the bug',
  category: 'bug-fixing',
  requester: 'U0ALICE',
  channel: 'C0DEV',
  status: 'done',
  outcome: 'pr_opened',
  startedAt: Date.parse('2026-11-20T10:00:00Z'),
  phases: [],
  bytes: 0,
  truncated: false,
  ...over,
});

type Element = {
  type: string;
  action_id?: string;
  value?: string;
  text?: { text: string };
  initial_option?: { value: string };
  options?: unknown[];
};
const actionElements = (view: { blocks: unknown[] }) =>
  (view.blocks as Array<{ type: string; elements?: Element[] }>).flatMap((b) => (b.type === 'actions' ? (b.elements ?? []) : []));

const NO_RUNS = { running: [], list: { runs: [], total: 0 }, state: { page: 0 }, repositories: [] };

describe('App Home view', () => {
  it('lists running runs first, with thread, PR and run-page links, and escapes instructions', () => {
    const live = run({ id: 'live', status: 'running', outcome: undefined, instruction: 'ping <!channel> & <@U0BOB>', threadTs: '1.2' });
    const done = run({
      id: 'done',
      costUsd: 0.5,
      pullRequest: { number: 3, url: 'https://github.com/acme/web/pull/3' },
      threadUrl: 'https://slack.example/archives/C0DEV/p1',
    });
    const view = appHomeView({
      running: [live],
      list: { runs: [live, done], total: 2 },
      state: { page: 0 },
      repositories: ['acme/web'],
      runPageUrl: (id) => `https://wrench.example.com/runs/${id}?expires=1&sig=x`,
    });
    const text = JSON.stringify(view.blocks);
    expect(view.type).toBe('home');
    expect(text.indexOf('Running now')).toBeLessThan(text.indexOf('All your runs, newest first (1–2 of 2)'));
    expect(text).toContain('&lt;!channel&gt; &amp; &lt;@U0BOB&gt;');
    expect(text).not.toContain('<!channel>');
    expect(text).toContain('<https://github.com/acme/web/pull/3|PR #3>');
    expect(text).toContain('<https://slack.example/archives/C0DEV/p1|thread>');
    expect(text).toContain('<https://wrench.example.com/runs/done?expires=1&sig=x|fix the bug>');
    expect(text).toContain('$0.50');
    expect(text).not.toContain('This week');
  });

  it('shows admins the week per channel and per person with the week before, says how many rows were cut, and stays within 100 blocks', () => {
    const row = (runs: number, costMicros: number, failed = 0) => ({ runs, failed, costMicros });
    const byChannel = new Map([
      ['C0DEV', row(2, 3_000_000, 1)],
      ['C0OPS', row(1, 250_000)],
      ...Array.from({ length: 20 }, (_, i) => [`C0X${i}`, row(1, 0)] as const),
    ]);
    const current = { runs: 23, failed: 1, costMicros: 3_250_000, byChannel, byPerson: new Map([['U0ALICE', row(23, 3_250_000, 1)]]) };
    const previous = { runs: 10, failed: 0, costMicros: 6_500_000, byChannel: new Map(), byPerson: new Map() };
    const week = { current, previous };
    const many = Array.from({ length: 80 }, (_, i) => run({ id: `r${i}`, status: 'running', threadTs: '1.2' }));
    const view = appHomeView({
      running: many,
      list: { runs: many.slice(0, 15), total: 80 },
      state: { page: 0 },
      repositories: [],
      week,
      runPageUrl: () => undefined,
    });
    expect(view.blocks.length).toBeLessThanOrEqual(100);
    const admin = JSON.stringify(appHomeView({ ...NO_RUNS, week, runPageUrl: () => undefined }).blocks);
    expect(admin).toContain('*23* runs · *$3.25* model spend');
    expect(admin).toContain('Week before: 10 runs · $6.50 · change: runs +130%, spend -50%');
    expect(admin).toContain('<#C0DEV>: 2 runs (1 failed) · $3.00');
    expect(admin).toContain('<#C0OPS>: 1 run · $0.25');
    expect(admin).toContain('…and 7 more channels');
    expect(admin).toContain('<@U0ALICE>: 23 runs (1 failed) · $3.25');
    expect(admin).toContain('No runs yet');
  });

  it('gives each running run a Cancel button for that run, with a confirmation', () => {
    const live = run({ id: 'job-7', status: 'running', outcome: undefined, threadTs: '1700.1' });
    const view = appHomeView({ ...NO_RUNS, running: [live], list: { runs: [live], total: 1 }, runPageUrl: () => undefined });
    const buttons = actionElements(view).filter((e) => e.action_id === HOME_ACTIONS.cancel);
    expect(buttons).toHaveLength(1);
    expect(decodeHomeCancel(buttons[0]!.value)).toEqual({ channel: 'C0DEV', threadTs: '1700.1', jobId: 'job-7' });
    expect(JSON.stringify(buttons[0])).toContain('Cancel this run?');
  });

  it('pages past the newest 15 and filters by repository and outcome, keeping its state in the view', () => {
    const page = Array.from({ length: 15 }, (_, i) => run({ id: `r${i}`, repository: 'acme/api', outcome: 'failed' }));
    const state = { repository: 'acme/api', outcome: 'failed', page: 1 };
    const view = appHomeView({ running: [], list: { runs: page, total: 40 }, state, repositories: ['acme/web', 'acme/api'], runPageUrl: () => undefined });
    const text = JSON.stringify(view.blocks);
    expect(text).toContain('Matching runs, newest first (16–30 of 40)');
    expect(text).toContain('Page 2 of 3');
    const elements = actionElements(view);
    const pages = elements.filter((e) => e.action_id?.startsWith(HOME_ACTIONS.page));
    expect(pages.map((e) => [e.text!.text, e.value])).toEqual([
      ['← Newer', '0'],
      ['Older →', '2'],
    ]);
    const selects = elements.filter((e) => e.type === 'static_select');
    expect(selects.map((s) => [s.action_id, s.initial_option!.value])).toEqual([
      [HOME_ACTIONS.repository, 'acme/api'],
      [HOME_ACTIONS.outcome, 'failed'],
    ]);
    expect(selects[0]!.options).toHaveLength(3);
    expect(decodeHomeState(view.private_metadata)).toEqual(state);
    // Nothing matching says so; the last page has no Older button.
    const none = JSON.stringify(appHomeView({ ...NO_RUNS, state: { outcome: 'cancelled', page: 0 }, runPageUrl: () => undefined }).blocks);
    expect(none).toContain('No runs match these filters.');
    expect(none).not.toContain('No runs yet');
    const last = JSON.stringify(
      appHomeView({ ...NO_RUNS, list: { runs: page.slice(0, 10), total: 40 }, state: { page: 2 }, runPageUrl: () => undefined }).blocks,
    );
    expect(last).toContain('31–40 of 40');
    expect(last).not.toContain('Older');
  });

  it('reads only a well-formed state back from Slack', () => {
    expect(decodeHomeState('{"r":"acme/web","o":"pr_opened","p":3}')).toEqual({ repository: 'acme/web', outcome: 'pr_opened', page: 3 });
    expect(decodeHomeState('{"r":"../x y","o":"__proto__","p":-1}')).toEqual({ repository: undefined, outcome: undefined, page: 0 });
    expect(decodeHomeState('not json')).toEqual({ page: 0 });
  });
});
