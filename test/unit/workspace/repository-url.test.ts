import { describe, expect, it } from 'vitest';
import { repositoryUrl } from '../../../src/workspace/repository-url.js';

describe('repositoryUrl', () => {
  it('joins base, owner and repo', () => {
    expect(repositoryUrl('https://github.com', 'acme', 'web')).toBe('https://github.com/acme/web.git');
    expect(repositoryUrl('https://ghe.example.com/', 'acme', 'web')).toBe('https://ghe.example.com/acme/web.git');
    expect(repositoryUrl('file:///tmp/remotes//', 'acme', 'web')).toBe('file:///tmp/remotes/acme/web.git');
  });

  it('does not double the .git suffix', () => {
    expect(repositoryUrl('https://github.com', 'acme', 'web.git')).toBe('https://github.com/acme/web.git');
  });

  it('strips credentials from the base URL', () => {
    expect(repositoryUrl('https://x-access-token:ghp_secret@github.com', 'acme', 'web')).toBe('https://github.com/acme/web.git');
  });

  it('rejects names that could escape the path', () => {
    for (const [owner, repo] of [
      ['..', 'web'],
      ['acme', '../x'],
      ['acme', 'a/b'],
      ['-x', 'web'],
      ['acme', ''],
    ]) {
      expect(() => repositoryUrl('https://github.com', owner!, repo!)).toThrow(expect.objectContaining({ code: 'invalid_repository' }));
    }
  });
});
