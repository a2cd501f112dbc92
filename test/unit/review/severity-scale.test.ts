import { describe, expect, it } from 'vitest';
import { severityScale } from '../../../src/review/severity-scale.js';

describe('severityScale', () => {
  it('defaults to Critical/Major/Minor', () => {
    expect(severityScale(undefined)).toEqual(['Critical', 'Major', 'Minor']);
    expect(severityScale(['high'])).toEqual(['Critical', 'Major', 'Minor']);
  });

  it('uses the requested set, capitalised, in order, without duplicates', () => {
    expect(severityScale(['critical', 'HIGH', 'Medium', 'low', 'high'])).toEqual(['Critical', 'High', 'Medium', 'Low']);
    expect(severityScale(['p0', 'p1', 'p2'])).toEqual(['P0', 'P1', 'P2']);
  });
});
