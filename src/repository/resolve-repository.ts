import type { ConfigFile } from '../config/config-file.js';
import picomatch from 'picomatch';
import { WrenchError } from '../errors.js';

export interface RepoRef {
  owner: string;
  name: string;
  baseBranch?: string;
}

export type RepoResolution =
  | { ok: true; repo: RepoRef; source: 'message' | 'channel' }
  | { ok: false; reason: 'not_allowed'; named: string }
  | { ok: false; reason: 'no_repository' };

const GITHUB_URL = /https?:\/\/[^\s/|>]+\/([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+?)(?:\.git)?(?=[/|>#?\s]|$)/;
// "in acme/api", "repo acme/api", "acme/api#12": an owner/name not part of a path like src/lib/x.ts.
const OWNER_REPO = /(?:^|[\s(`'"])([A-Za-z0-9][A-Za-z0-9-]{0,38})\/([A-Za-z0-9_][A-Za-z0-9_.-]{0,99}?)(?=[\s)`'",.:;!?#]|$)/g;

/** The repository a message names explicitly: a GitHub URL, or owner/name outside of file paths. */
export function repositoryNamedIn(text: string): RepoRef | null {
  const url = GITHUB_URL.exec(text);
  if (url) {
    const [, owner = '', name = ''] = url;
    return { owner, name };
  }
  for (const match of text.matchAll(OWNER_REPO)) {
    const [, owner = '', name = ''] = match;
    if (name.includes('.') && /\.[a-z]{1,5}$/i.test(name) && !/\.(js|io|net|org|com)$/i.test(name)) continue; // a file such as src/x.ts
    if (['src', 'lib', 'test', 'tests', 'docs', 'app', 'packages', 'bin', 'scripts', 'and', 'or'].includes(owner.toLowerCase())) continue;
    return { owner, name };
  }
  return null;
}

/**
 * Which repository a message works on: one it names (allowed only when it matches `repos`),
 * else the channel's linked repository.
 */
export function resolveRepository(text: string, channel: string, config: ConfigFile): RepoResolution {
  const named = repositoryNamedIn(text);
  const linked = config.channels[channel];
  if (named) {
    const fullName = `${named.owner}/${named.name}`;
    if (linked && `${linked.repo}`.toLowerCase() === fullName.toLowerCase()) {
      return { ok: true, repo: { ...named, baseBranch: linked.baseBranch }, source: 'channel' };
    }
    if (isRepoAllowed(fullName, config.repos)) return { ok: true, repo: named, source: 'message' };
    // A phrase that only looks like owner/name ("either/or") must not block a channel's own repository.
    if (!linked || text.includes('github.com/') || looksDeliberate(text, fullName)) return { ok: false, reason: 'not_allowed', named: fullName };
  }
  if (linked) {
    return { ok: true, repo: { ...repoRefOf(linked.repo), baseBranch: linked.baseBranch }, source: 'channel' };
  }
  return { ok: false, reason: 'no_repository' };
}

/** "owner/name" (as the configuration holds it) as a RepoRef; anything else is refused. */
export function repoRefOf(fullName: string): RepoRef {
  const [owner, name, ...rest] = fullName.split('/');
  if (!owner || !name || rest.length) throw new WrenchError('invalid_repository', `"${fullName}" is not a repository's owner/name.`);
  return { owner, name };
}

function looksDeliberate(text: string, fullName: string): boolean {
  const escaped = fullName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`\\b(?:in|on|repo|repository|for|of)\\s+\`?${escaped}`, 'i').test(text);
}

/** `acme/*` style globs (`*` within one path segment, `?` one character), case-insensitive like GitHub. */
export function isRepoAllowed(fullName: string, globs: string[]): boolean {
  return globs.length > 0 && picomatch.isMatch(fullName, globs, { nocase: true });
}
