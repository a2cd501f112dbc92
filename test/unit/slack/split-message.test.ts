import { describe, expect, it } from 'vitest';
import { chunkText, splitForSlack, SLACK_LIMITS } from '../../../src/slack/split-message.js';

describe('splitForSlack', () => {
  it('keeps a short text in one section', () => {
    const parts = splitForSlack('hello');
    expect(parts).toHaveLength(1);
    expect(parts[0]!.blocks).toHaveLength(1);
  });

  it('splits a long report within every limit and loses nothing', () => {
    const lines = Array.from({ length: 4000 }, (_, i) => `line ${i}: ${'x'.repeat(i % 70)}`);
    const text = lines.join('\n');
    const parts = splitForSlack(text);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) {
      expect(part.blocks.length).toBeLessThanOrEqual(SLACK_LIMITS.blocksPerMessage);
      expect(part.text.length).toBeLessThanOrEqual(SLACK_LIMITS.textChars);
      for (const block of part.blocks) {
        const section = block as { text: { text: string } };
        expect(section.text.text.length).toBeLessThanOrEqual(SLACK_LIMITS.sectionChars);
      }
    }
    const joined = parts.map((p) => p.text).join('\n');
    for (const line of [lines[0], lines[1999], lines[3999]]) expect(joined).toContain(line);
    expect(joined.match(/^line \d+:/gm)).toHaveLength(4000);
  });

  it('keeps code fences balanced across pieces', () => {
    const code = '```\n' + Array.from({ length: 300 }, (_, i) => `const v${i} = ${i};`).join('\n') + '\n```';
    for (const piece of chunkText(code, 1000)) {
      expect((piece.match(/```/g) ?? []).length % 2).toBe(0);
    }
  });

  it('cuts a single huge line', () => {
    const pieces = chunkText('a'.repeat(10_000), 3000);
    expect(pieces.join('')).toHaveLength(10_000);
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThanOrEqual(3000);
  });
});
