import { describe, expect, it } from 'vitest';
import { isTestFile } from '../../../src/verification/test-files.js';

describe('isTestFile', () => {
  it('knows the common conventions', () => {
    for (const file of ['test/dates.test.js', 'src/a.spec.ts', 'tests/test_app.py', 'pkg/a_test.go', '__tests__/x.js', 'src/FooTest.java', 'spec/a_spec.rb'])
      expect(isTestFile(file), file).toBe(true);
    for (const file of ['src/dates.js', 'src/testing.py', 'latest.js', 'src/contest.go']) expect(isTestFile(file), file).toBe(false);
  });
});
