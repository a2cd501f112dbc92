import { describe, expect, it } from 'vitest';
import { configFileSchema } from '../../../src/config/config-file.js';
import { isRepoAllowed, repoRefOf, repositoryNamedIn, resolveRepository } from '../../../src/repository/resolve-repository.js';

const config = configFileSchema.parse({
  channels: { C1: { repo: 'acme/web', baseBranch: 'main' } },
  repos: ['acme/*', 'tools/cli'],
});

describe('repository resolution', () => {
  it('finds owner/name and GitHub URLs, not file paths', () => {
    expect(repositoryNamedIn('review PR #91 in acme/api please')).toEqual({ owner: 'acme', name: 'api' });
    expect(repositoryNamedIn('see <https://github.com/acme/api/pull/3|the PR>')).toEqual({ owner: 'acme', name: 'api' });
    expect(repositoryNamedIn('fix src/lib/format.ts')).toBeNull();
    expect(repositoryNamedIn('add tests in test/unit')).toBeNull();
    expect(repositoryNamedIn('Put the script in analysis/.')).toBeNull();
  });

  it('reads a configured owner/name, and refuses anything else', () => {
    expect(repoRefOf('acme/web')).toEqual({ owner: 'acme', name: 'web' });
    for (const bad of ['acme', 'acme/', '/web', 'acme/web/extra', ''])
      expect(() => repoRefOf(bad)).toThrow(expect.objectContaining({ code: 'invalid_repository', message: `"${bad}" is not a repository's owner/name.` }));
  });

  it('uses a named repository only when it matches repos', () => {
    expect(resolveRepository('fix the bug in acme/api', 'C9', config)).toMatchObject({ ok: true, repo: { owner: 'acme', name: 'api' }, source: 'message' });
    expect(resolveRepository('fix the bug in evil/repo', 'C9', config)).toEqual({ ok: false, reason: 'not_allowed', named: 'evil/repo' });
  });

  it('falls back to the channel mapping, and says when there is none', () => {
    expect(resolveRepository('add a --json flag', 'C1', config)).toMatchObject({
      ok: true,
      repo: { owner: 'acme', name: 'web', baseBranch: 'main' },
      source: 'channel',
    });
    expect(resolveRepository('add a --json flag', 'C9', config)).toEqual({ ok: false, reason: 'no_repository' });
  });

  it('globs match one segment, case-insensitively', () => {
    expect(isRepoAllowed('acme/web', ['acme/*'])).toBe(true);
    expect(isRepoAllowed('ACME/Web', ['acme/*'])).toBe(true);
    expect(isRepoAllowed('acme2/web', ['acme/*'])).toBe(false);
    expect(isRepoAllowed('tools/cli', ['tools/cl?'])).toBe(true);
  });
});
