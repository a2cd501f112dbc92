import { describe, expect, it } from 'vitest';
import { messageText, type SlackNames } from '../../../src/slack/message-text.js';
import { richTextBlocksFor } from '../../fakes/slack/rich-text.js';

const names: SlackNames & { lookups: string[] } = {
  lookups: [],
  async userName(id) {
    this.lookups.push(id);
    return ({ U0BOB0001: 'Bob', U0ANN: 'Ann Lee' } as Record<string, string>)[id];
  },
  async channelName(id) {
    this.lookups.push(id);
    return ({ C0OTHER01: 'eng-demo' } as Record<string, string>)[id];
  },
};

const WIRE = '<@U0BOT> only when `name &amp;&amp; name.length &gt; 0` (context in <#C0OTHER01|eng-demo>, cc <@U0BOB0001>)';
const PERSON = 'only when `name && name.length > 0` (context in #eng-demo, cc @Bob)';

describe('messageText: what the person wrote', () => {
  it('decodes the wire text when there are no blocks', async () => {
    expect(await messageText({ text: WIRE }, names, 'U0BOT')).toBe(PERSON);
  });

  it('reads rich_text blocks in preference to text', async () => {
    expect(await messageText({ text: 'ignored', blocks: richTextBlocksFor(WIRE) }, names, 'U0BOT')).toBe(PERSON);
  });

  it('keeps code blocks, links, lists, quotes, emoji, broadcasts and unknown ids', async () => {
    const blocks = [
      {
        type: 'rich_text',
        block_id: 'a1',
        elements: [
          {
            type: 'rich_text_section',
            elements: [
              { type: 'user', user_id: 'U0BOT' },
              { type: 'text', text: ' fix ' },
              { type: 'text', text: 'a < b', style: { code: true } },
              { type: 'text', text: ' see ' },
              { type: 'link', url: 'https://ci.example.com/run/1', text: 'the run' },
              { type: 'text', text: ' ' },
              { type: 'emoji', name: 'fire', unicode: '1f525' },
              { type: 'text', text: ' ' },
              { type: 'broadcast', range: 'here' },
              { type: 'text', text: ' ' },
              { type: 'user', user_id: 'U0GONE' },
              { type: 'text', text: '\n' },
            ],
          },
          { type: 'rich_text_preformatted', border: 0, elements: [{ type: 'text', text: 'if (a && b) {\n  go();\n}' }] },
          {
            type: 'rich_text_list',
            style: 'ordered',
            indent: 0,
            border: 0,
            elements: [
              { type: 'rich_text_section', elements: [{ type: 'text', text: 'first' }] },
              { type: 'rich_text_section', elements: [{ type: 'text', text: 'second' }] },
            ],
          },
          { type: 'rich_text_quote', elements: [{ type: 'text', text: 'TypeError: x is undefined' }] },
        ],
      },
    ];
    expect(await messageText({ text: 'x', blocks }, names, 'U0BOT')).toBe(
      'fix `a < b` see the run (https://ci.example.com/run/1) :fire: @here @U0GONE\n```\nif (a && b) {\n  go();\n}\n```\n1. first\n2. second\n> TypeError: x is undefined',
    );
  });

  it('decodes labelled and bare links, user groups, special mentions and dates in text', async () => {
    const text =
      'see <https://a.example/x?y=1&amp;z=2|the page> and <https://b.example/> ping <!subteam^S0TEAM|@oncall> <!channel> by <!date^1700000000^{date}|Nov 14> <@U0ANN>';
    expect(await messageText({ text }, names, 'U0BOT')).toBe(
      'see the page (https://a.example/x?y=1&z=2) and https://b.example/ ping @oncall @channel by Nov 14 @Ann Lee',
    );
  });

  it('reads a NUL, other control characters and a lone surrogate as well-formed text, in text and in blocks', async () => {
    expect(await messageText({ text: 'add\u0000 src/x.js\u001b[31m now\u0007 \ud800' }, names)).toBe('add src/x.js now \ufffd');
    const blocks = [{ type: 'rich_text', elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'fix\u0000 it\tplease\udc00' }] }] }];
    expect(await messageText({ text: 'x', blocks }, names)).toBe('fix it\tplease\ufffd');
  });

  it('accepts absent or null text and blocks that are not rich text', async () => {
    expect(await messageText({ text: null }, names)).toBe('');
    expect(await messageText({ text: 'plain &lt;3', blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'x' } }] }, names)).toBe('plain <3');
    expect(await messageText({ text: 'still read', blocks: null }, names)).toBe('still read');
    expect(await messageText({ text: 42 as unknown as string, blocks: [{ type: 'rich_text', elements: 'x' }, null] }, names)).toBe('');
  });
});
