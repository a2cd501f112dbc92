import { describe, expect, it } from 'vitest';
import { globToRegExp, protectedChanges } from '../../../src/security/protected-paths.js';

describe('protected paths', () => {
  it('matches the default workflow glob and nothing else', () => {
    expect(protectedChanges(['.github/workflows/ci.yml', '.github/workflows/sub/x.yml', 'src/a.ts', '.github/CODEOWNERS'], ['.github/workflows/**'])).toEqual([
      '.github/workflows/ci.yml',
      '.github/workflows/sub/x.yml',
    ]);
  });

  it('supports *, ? and **/ in the middle', () => {
    expect(globToRegExp('src/*.ts').test('src/a.ts')).toBe(true);
    expect(globToRegExp('src/*.ts').test('src/x/a.ts')).toBe(false);
    expect(globToRegExp('**/secrets/*').test('a/b/secrets/key')).toBe(true);
    expect(globToRegExp('**/secrets/*').test('secrets/key')).toBe(true);
    expect(globToRegExp('Dockerfil?').test('Dockerfile')).toBe(true);
  });
});
