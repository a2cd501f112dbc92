import { describe, expect, it } from 'vitest';
import { threadHtml } from '../../docs/thread-html.js';

const people = { channel: 'dev', names: { U0BOT: 'wrench', U0ALICE: 'Alice' } };

describe('threadHtml (the picture of a thread in docs/images)', () => {
  it('draws a mention, then the streamed message: its plan of task cards with their status and output, and its reply', () => {
    const html = threadHtml(
      [
        {
          ts: '1795919882.697000',
          user: 'U0ALICE',
          blocks: [
            {
              type: 'rich_text',
              elements: [
                {
                  type: 'rich_text_section',
                  elements: [
                    { type: 'user', user_id: 'U0BOT' },
                    { type: 'text', text: ' fix ' },
                    { type: 'text', text: 'format.js', style: { code: true } },
                  ],
                },
              ],
            },
          ],
          reactions: [{ name: 'white_check_mark', count: 1 }],
        },
        {
          ts: '1795919884.064000',
          user: 'U0BOT',
          bot_id: 'B0BOT',
          blocks: [
            {
              type: 'plan',
              title: 'Done: acme/web',
              tasks: [
                {
                  type: 'task_card',
                  title: 'Read the request',
                  status: 'complete',
                  output: { type: 'rich_text', elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'Testing · simple' }] }] },
                  sources: [{ type: 'url', url: 'https://wrench.example.com/runs/1', text: 'Every step on the run page' }],
                },
                { type: 'task_card', title: 'Verify', status: 'in_progress' },
              ],
            },
            { type: 'markdown', text: 'Outcome: `npm test` passes.\n\n**Verification (run by Wrench)**\nsame as before\n\n- `npm test`: 1 passed\n- detected' },
          ],
        },
      ],
      people,
    );
    expect(html).toContain('<span class="mention">@wrench</span> fix <code>format.js</code>');
    expect(html).toContain('<b>Alice</b>');
    expect(html).toContain('<b>wrench</b><span class="app">APP</span><span class="time">02:38</span>');
    expect(html).toContain('<div class="plan-title">Done: acme/web</div>');
    expect(html).toMatch(
      /<li class="task complete"><span class="status" title="complete">✓<\/span><div><div class="title">Read the request<\/div><div class="output"><div>Testing · simple<\/div><\/div><a class="source">Every step on the run page<\/a>/,
    );
    expect(html).toContain('<li class="task in_progress">');
    expect(html).toContain('<p>Outcome: <code>npm test</code> passes.</p>');
    // A line break in Slack's markdown is a break; a list after it is still a list.
    expect(html).toContain('<strong>Verification (run by Wrench)</strong><br />\nsame as before');
    expect(html).toContain('<li><code>npm test</code>: 1 passed</li>');
    expect(html).toContain('<span class="reaction"><span class="ok">✔</span> 1</span>');
    expect(html).toContain('1 reply');
  });

  it('shows what people and the agent wrote as text, never as markup', () => {
    const html = threadHtml(
      [
        { ts: '1.0', user: 'U0ALICE', text: '<script>alert(1)</script> *bold*' },
        { ts: '2.0', user: 'U0BOT', bot_id: 'B', blocks: [{ type: 'markdown', text: 'hi <img src=x onerror=alert(1)> [x](javascript:alert(1))' }] },
      ],
      people,
    );
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('javascript:');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; <b>bold</b>');
  });
});
