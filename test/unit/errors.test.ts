import { describe, expect, it } from 'vitest';
import { WRENCH_ERROR_CODES } from '../../src/errors.js';

describe('WrenchError codes', () => {
  it('are one closed list in one casing (snake_case), each once', () => {
    for (const code of WRENCH_ERROR_CODES) expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
    expect(new Set(WRENCH_ERROR_CODES).size).toBe(WRENCH_ERROR_CODES.length);
  });
});
