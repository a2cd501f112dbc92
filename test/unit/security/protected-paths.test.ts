import { describe, expect, it } from 'vitest';
import { protectedChanges } from '../../../src/security/protected-paths.js';

describe('protected paths', () => {
  it('matches the default workflow glob and nothing else', () => {
    expect(protectedChanges(['.github/workflows/ci.yml', '.github/workflows/sub/x.yml', 'src/a.ts', '.github/CODEOWNERS'], ['.github/workflows/**'])).toEqual([
      '.github/workflows/ci.yml',
      '.github/workflows/sub/x.yml',
    ]);
  });

  it('supports *, ? and **/ in the middle, and ./ prefixes', () => {
    expect(protectedChanges(['src/a.ts', 'src/x/a.ts'], ['src/*.ts'])).toEqual(['src/a.ts']);
    expect(protectedChanges(['a/b/secrets/key', 'secrets/key', 'secret/key'], ['**/secrets/*'])).toEqual(['a/b/secrets/key', 'secrets/key']);
    expect(protectedChanges(['Dockerfile', './Dockerfile.dev'], ['Dockerfil?'])).toEqual(['Dockerfile']);
    expect(protectedChanges(['./.github/workflows/ci.yml'], ['.github/workflows/**'])).toEqual(['./.github/workflows/ci.yml']);
  });

  it('protects nothing without globs', () => {
    expect(protectedChanges(['.github/workflows/ci.yml'], [])).toEqual([]);
  });
});
