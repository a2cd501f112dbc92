import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../../../src/run-log/run-log-types.js';
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

describe('App Home view', () => {
  it('lists running runs first, with thread, PR and run-page links, and escapes instructions', () => {
    const view = appHomeView({
      mine: [
        run({
          id: 'done',
          costUsd: 0.5,
          pullRequest: { number: 3, url: 'https://github.com/acme/web/pull/3' },
          threadUrl: 'https://slack.example/archives/C0DEV/p1',
        }),
        run({ id: 'live', status: 'running', outcome: undefined, instruction: 'ping <!channel> & <@U0BOB>' }),
      ],
      runPageUrl: (id) => `https://wrench.example.com/runs/${id}?expires=1&sig=x`,
    });
    const text = JSON.stringify(view.blocks);
    expect(view.type).toBe('home');
    expect(text.indexOf('Running now')).toBeLessThan(text.indexOf('Recent'));
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
    const view = appHomeView({ mine: Array.from({ length: 80 }, (_, i) => run({ id: `r${i}` })), week, runPageUrl: () => undefined });
    expect(view.blocks.length).toBeLessThanOrEqual(100);
    const admin = JSON.stringify(appHomeView({ mine: [], week, runPageUrl: () => undefined }).blocks);
    expect(admin).toContain('*23* runs · *$3.25* model spend');
    expect(admin).toContain('Week before: 10 runs · $6.50 · change: runs +130%, spend -50%');
    expect(admin).toContain('<#C0DEV>: 2 runs (1 failed) · $3.00');
    expect(admin).toContain('<#C0OPS>: 1 run · $0.25');
    expect(admin).toContain('…and 7 more channels');
    expect(admin).toContain('<@U0ALICE>: 23 runs (1 failed) · $3.25');
    expect(admin).toContain('No runs yet');
  });
});
