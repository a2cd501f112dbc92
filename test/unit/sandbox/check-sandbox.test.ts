import { describe, expect, it } from 'vitest';
import { checkSandbox } from '../../../src/sandbox/check-sandbox.js';

describe('checkSandbox', () => {
  it('says how to install bubblewrap when it is missing', async () => {
    const result = await checkSandbox({ bwrapPath: '/nonexistent/bwrap' });
    expect(result.ok).toBe(false);
    expect(result.problem).toContain('not installed');
    expect(result.fix).toContain('apt-get install bubblewrap');
  });
});
