import { describe, expect, it } from 'vitest';
import { configFileSchema } from '../../../src/config/config-file.js';
import { isRepoAllowed, repoRefOf, repositoryNamedIn, resolveRepository } from '../../../src/repository/resolve-repository.js';

const config = configFileSchema.parse({
  channels: {
    C1: { repo: 'acme/web', baseBranch: 'main' },
    CM: { repos: ['acme/web', 'acme/api', 'tools/api-docs'], baseBranch: 'main' },
    CS: { repos: ['acme/api', 'other/api', 'acme/web'] },
  },
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

  describe('a channel with several repositories', () => {
    const web = { owner: 'acme', name: 'web', baseBranch: 'main' };
    const api = { owner: 'acme', name: 'api', baseBranch: 'main' };
    const docs = { owner: 'tools', name: 'api-docs', baseBranch: 'main' };

    it("takes the one it names by owner/name, also in a GitHub URL, with the channel's base branch", () => {
      expect(resolveRepository('add rate limiting to acme/api', 'CM', config)).toEqual({ ok: true, repo: api, source: 'channel' });
      expect(resolveRepository('ACME/Web: the footer overlaps', 'CM', config)).toEqual({ ok: true, repo: web, source: 'channel' });
      expect(resolveRepository('see https://github.com/acme/api/pull/3', 'CM', config)).toEqual({ ok: true, repo: api, source: 'channel' });
    });

    it('takes the one it names by short name, as a word of its own', () => {
      expect(resolveRepository('api: add rate limiting to /search', 'CM', config)).toEqual({ ok: true, repo: api, source: 'channel' });
      expect(resolveRepository('in the web repo, the footer overlaps', 'CM', config)).toEqual({ ok: true, repo: web, source: 'channel' });
      expect(resolveRepository('api-docs lists a removed endpoint', 'CM', config)).toEqual({ ok: true, repo: docs, source: 'channel' });
      // Part of a path or a file name is not the repository's name.
      expect(resolveRepository('fix src/api/handler.ts', 'CM', config)).toEqual({ ok: false, reason: 'choose', candidates: [web, api, docs] });
      expect(resolveRepository('fix api.ts', 'CM', config)).toEqual({ ok: false, reason: 'choose', candidates: [web, api, docs] });
    });

    it('a short name two of them share, or two names, leave the choice open', () => {
      expect(resolveRepository('api: add rate limiting', 'CS', config)).toEqual({
        ok: false,
        reason: 'choose',
        candidates: [
          { owner: 'acme', name: 'api' },
          { owner: 'other', name: 'api' },
          { owner: 'acme', name: 'web' },
        ],
      });
      expect(resolveRepository('acme/api: add rate limiting', 'CS', config)).toEqual({ ok: true, repo: { owner: 'acme', name: 'api' }, source: 'channel' });
      expect(resolveRepository('web and api both log twice', 'CM', config)).toMatchObject({ ok: false, reason: 'choose', candidates: [web, api, docs] });
      // Two it names in full: the choice is between those two.
      expect(resolveRepository('move the client from acme/web to acme/api', 'CM', config)).toEqual({ ok: false, reason: 'choose', candidates: [web, api] });
    });

    it('names nothing: the choice is open; another allowed repository it names is used, one not allowed is refused', () => {
      expect(resolveRepository('the footer overlaps on mobile', 'CM', config)).toEqual({ ok: false, reason: 'choose', candidates: [web, api, docs] });
      expect(resolveRepository('fix the bug in tools/cli', 'CM', config)).toMatchObject({ ok: true, repo: { owner: 'tools', name: 'cli' }, source: 'message' });
      expect(resolveRepository('fix the bug in evil/repo', 'CM', config)).toEqual({ ok: false, reason: 'not_allowed', named: 'evil/repo' });
    });
  });
});
