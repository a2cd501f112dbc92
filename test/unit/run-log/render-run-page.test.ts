import { describe, expect, it } from 'vitest';
import { renderEntry, renderRunPage } from '../../../src/run-log/render-run-page.js';
import type { RunSummary } from '../../../src/run-log/run-log-types.js';

const summary: RunSummary = {
  id: 'r1',
  repository: 'acme/web',
  instruction: 'fix <b>it</b>',
  category: 'bug-fixing',
  requester: 'U0ALICE',
  status: 'done',
  outcome: 'pr_opened',
  startedAt: 0,
  finishedAt: 95_000,
  phases: [{ name: 'working', startedAt: 0, endedAt: 65_000 }],
  pullRequest: { number: 7, url: 'https://github.com/acme/web/pull/7' },
  threadUrl: 'javascript:alert(1)',
  bytes: 0,
  truncated: false,
};

describe('the run page', () => {
  it('escapes everything that came from the model, tools and people', () => {
    const html = renderRunPage(
      summary,
      [
        { kind: 'text', at: 0, step: 1, text: '<script>alert(1)</script>' },
        {
          kind: 'tool',
          at: 0,
          step: 1,
          name: 'bash',
          title: 't',
          input: 'echo "<img src=x onerror=alert(1)>"',
          output: '</pre><script>x</script>',
          isError: false,
        },
      ],
      null,
    );
    expect(html).not.toMatch(/<script>alert|<img|<\/pre><script>|<b>it/);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('EventSource');
    expect(html).not.toContain('javascript:');
  });

  it('folds long outputs, colours diff lines and shows phase timings', () => {
    const long = Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n');
    expect(renderEntry({ kind: 'tool', at: 0, step: 1, name: 'bash', title: 't', input: 'seq 40', output: long, isError: false })).toContain(
      '<details><summary>output (40 lines)</summary>',
    );
    const diff = renderEntry({ kind: 'edit', at: 0, step: 1, path: 'a.js', diff: '--- a/a.js\n+++ b/a.js\n@@ x @@\n-old\n+new' });
    expect(diff).toContain('<span class="del">-old</span>');
    expect(diff).toContain('<span class="add">+new</span>');
    const html = renderRunPage(summary, [], null);
    expect(html).toContain('1 min 5 s');
    expect(html).toContain('Pull request #7');
  });

  it('names the requester by their Slack name when the directory gave one', () => {
    expect(renderRunPage({ ...summary, requesterName: 'Alice Example' }, [], null)).toContain('Alice Example');
    expect(renderRunPage({ ...summary, requesterName: 'Alice Example' }, [], null)).not.toContain('U0ALICE');
  });

  it('shows a command step’s duration, exit code and an anchor', () => {
    const tool = { kind: 'tool' as const, at: 1_700_000_000_000, step: 3, name: 'bash', title: 't', input: 'npm test', output: '', isError: true };
    const failed = renderEntry({ ...tool, durationMs: 2345, exitCode: 1 });
    expect(failed).toContain('id="step-3-1700000000000"');
    expect(failed).toContain('<a class="anchor" href="#step-3-1700000000000">#</a>');
    expect(failed).toContain('<span class="duration">2.3 s</span> · <span class="exit">exit 1</span>');
    expect(renderEntry({ ...tool, durationMs: 40, exitCode: null })).toContain(
      '<span class="duration">40 ms</span> · <span class="exit">killed by a signal</span>',
    );
    expect(renderEntry(tool)).not.toContain('facts-inline');
  });

  it('shows each model call’s latency and its own tokens, with an anchor; an edit its duration and anchor', () => {
    const turn = renderEntry({
      kind: 'turn',
      at: 0,
      step: 4,
      latencyMs: 2345,
      usage: { inputTokens: 120, outputTokens: 56, cacheReadTokens: 1000, cacheWriteTokens: 30 },
    });
    expect(turn).toContain('id="turn-4"');
    expect(turn).toContain('<a class="anchor" href="#turn-4">#</a><span class="label">model call</span>');
    expect(turn).toContain('<span class="latency">2.3 s</span> · <span class="tokens">1150 in (1000 from cache) · 56 out</span>');
    expect(turn).not.toContain('model budget');
    const waited = renderEntry({
      kind: 'turn',
      at: 0,
      step: 5,
      latencyMs: 900,
      budgetWaitMs: 12_400,
      usage: { inputTokens: 1, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 },
    });
    expect(waited).toContain('<span class="budget-wait">waited 12.4 s for the model budget</span> · <span class="latency">900 ms</span>');
    const edit = renderEntry({ kind: 'edit', at: 5, step: 2, path: 'a.js', diff: '+x', durationMs: 12 });
    expect(edit).toContain('id="step-2-5"');
    expect(edit).toContain('<span class="duration">12 ms</span>');
  });

  it('renders the verification’s Markdown with everything in it still escaped', () => {
    const text = [
      '## Checks',
      'Checks run by Wrench after the change: **passed**.',
      '- `npm test`: 3 passed <script>alert(1)</script>',
      '- see [the log](https://ci.example/log?a=1&b=2) or [this](javascript:alert(1)) or <javascript:alert(2)>',
      '',
      '```',
      '<img src=x onerror=alert(3)>',
      '```',
      '![pixel](https://tracker.example/p.png) <b onclick="x()">raw</b>',
    ].join('\n');
    const html = renderEntry({ kind: 'verification', at: 0, text, passed: true });
    expect(html).toContain('<h2>Checks</h2>');
    expect(html).toContain('<strong>passed</strong>');
    expect(html).toContain('<li><code>npm test</code>: 3 passed &lt;script&gt;alert(1)&lt;/script&gt;</li>');
    expect(html).toContain('<a href="https://ci.example/log?a=1&amp;b=2" rel="noreferrer nofollow">the log</a>');
    expect(html).toContain('<pre><code>&lt;img src=x onerror=alert(3)&gt;');
    expect(html).toContain('&lt;b onclick=&quot;x()&quot;&gt;raw&lt;/b&gt;');
    // Unsafe links are text, not links; images are their alt text.
    expect(html).not.toMatch(/<a href=""|<script|<img|<b /);
    expect(html).toContain(' or this or javascript:alert(2)</li>');
    expect(html).toContain('pixel');
  });

  it('follows a running run by server-sent events', () => {
    const html = renderRunPage({ ...summary, status: 'running', finishedAt: undefined }, [], {
      eventsPath: '/runs/r1/events?expires=1&sig=x',
      nonce: 'bm9uY2U+PCI=',
    });
    expect(html).toContain('new EventSource("/runs/r1/events?expires=1&sig=x&from=0")');
    expect(html).toContain('<script nonce="bm9uY2U+PCI=">');
  });
});
