import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { WRENCH_ERROR_CODES } from '../../../src/errors.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The codes docs/troubleshooting.md has an entry for: the first cell of a table row. */
function documentedCodes(): string[] {
  const text = readFileSync(path.join(ROOT, 'docs/troubleshooting.md'), 'utf8');
  return [...text.matchAll(/^\| `([a-z_]+)` \|/gm)].map((match) => match[1] ?? '');
}

describe('docs/troubleshooting.md', () => {
  it('has an entry, what it means and what to do, for every code a WrenchError may carry', () => {
    const documented = new Set(documentedCodes());
    expect(
      WRENCH_ERROR_CODES.filter((code) => !documented.has(code)),
      'add a row `| `code` | what it means | what to do |` to docs/troubleshooting.md for each',
    ).toEqual([]);
  });

  it('names no code that src/errors.ts does not have, and each once', () => {
    const codes = documentedCodes();
    expect(codes.filter((code) => !(WRENCH_ERROR_CODES as readonly string[]).includes(code))).toEqual([]);
    expect(codes.filter((code, index) => codes.indexOf(code) !== index)).toEqual([]);
  });

  it('says something in each cell', () => {
    const text = readFileSync(path.join(ROOT, 'docs/troubleshooting.md'), 'utf8');
    const rows = [...text.matchAll(/^\| `[a-z_]+` \|(.*)\|$/gm)].map((match) => (match[1] ?? '').split(' | ').map((cell) => cell.trim()));
    expect(rows.filter((cells) => cells.length !== 2 || cells.some((cell) => cell.length < 8))).toEqual([]);
  });
});
