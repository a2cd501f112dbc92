import { describe, expect, it } from 'vitest';
import { describeAnalysisTools, parseProbe } from '../../../src/analysis/analysis-tools.js';
import { safeFileName } from '../../../src/inputs/stage-input-files.js';

describe('analysis tools', () => {
  it('reads the probe and tells the agent what it can use', () => {
    const tools = parseProbe('python 3.11.2\nmodules pandas numpy matplotlib\nnode v20.11.1\n');
    expect(tools).toEqual({ python: '3.11.2', pythonModules: ['pandas', 'numpy', 'matplotlib'], node: 'v20.11.1', r: false });
    const note = describeAnalysisTools(tools, false);
    expect(note).toContain('python3 3.11.2 with pandas, numpy, matplotlib');
    expect(note).toContain('matplotlib.use("Agg")');
    expect(note).toContain('There is no network');
  });

  it('says when only the standard library is there', () => {
    const note = describeAnalysisTools(parseProbe('python 3.11.7\nmodules\n'), true);
    expect(note).toContain('standard library only');
    expect(note).toContain('matplotlib is not available');
    expect(note).not.toContain('no network');
  });
});

describe('safeFileName', () => {
  it('keeps attachments inside wrench-input/ with portable names', () => {
    expect(safeFileName('../../etc/passwd')).toBe('passwd');
    expect(safeFileName('Q3 sales (final).csv')).toBe('Q3_sales_final_.csv');
    expect(safeFileName('.env')).toBe('env');
    expect(safeFileName('..')).toBe('attachment');
  });
});
