import { describe, expect, it } from 'vitest';
import { findMainTable, renderTextTable } from '../../../src/analysis/main-table.js';

const REPORT = [
  '# Revenue',
  '',
  'Some text.',
  '',
  '| Region | Revenue | Orders |',
  '|:---|---:|---:|',
  '| North | 1,200.50 | 12 |',
  '| **South** | 980 | 9 |',
  '',
  '| other | table |',
  '|---|---|',
  '| x | y |',
].join('\n');

describe('findMainTable', () => {
  it('finds the first table, without Markdown emphasis', () => {
    expect(findMainTable(REPORT)).toEqual([
      ['Region', 'Revenue', 'Orders'],
      ['North', '1,200.50', '12'],
      ['South', '980', '9'],
    ]);
  });

  it('is undefined without a table', () => {
    expect(findMainTable('# Title\n\nno table | here')).toBeUndefined();
  });
});

describe('renderTextTable', () => {
  it('aligns columns in a code block, numbers to the right', () => {
    expect(renderTextTable(findMainTable(REPORT)!)).toBe(
      ['```', 'Region   Revenue  Orders', '------  --------  ------', 'North   1,200.50      12', 'South        980       9', '```'].join('\n'),
    );
  });

  it('shows the first rows of a long table and says how many more there are', () => {
    const rows = [['n'], ...Array.from({ length: 30 }, (_, i) => [String(i)])];
    const text = renderTextTable(rows, 5);
    expect(text).toContain('… 25 more rows in the report');
    expect(text.split('\n')).toHaveLength(2 + 2 + 5 + 1);
  });
});
