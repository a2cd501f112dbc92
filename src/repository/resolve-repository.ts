import { channelRepositories, type ConfigFile } from '../config/config-file.js';
import picomatch from 'picomatch';
import { WrenchError } from '../errors.js';

export interface RepoRef {
  owner: string;
  name: string;
  baseBranch?: string;
}

export type RepoResolution =
  | { ok: true; repo: RepoRef; source: 'message' | 'channel' }
  /** A channel with several repositories whose instruction names none of them (or more than one): `candidates` are left. */
  | { ok: false; reason: 'choose'; candidates: RepoRef[] }
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
 * Which repository a message works on: one of the channel's it names (by owner/name, or by its short name when only one
 * of them has it), else another it names (allowed only when it matches `repos`), else the channel's one repository. A
 * channel with several that the message does not tell apart leaves the choice to the caller ('choose').
 */
export function resolveRepository(text: string, channel: string, config: ConfigFile): RepoResolution {
  const linked = config.channels[channel];
  const own = channelRepositories(linked).map((fullName) => ({ ...repoRefOf(fullName), ...(linked?.baseBranch ? { baseBranch: linked.baseBranch } : {}) }));
  const namedOwn = own.filter((repo) => namesRepository(text, `${repo.owner}/${repo.name}`));
  if (namedOwn.length > 1) return { ok: false, reason: 'choose', candidates: namedOwn };
  const [namedOne] = namedOwn;
  if (namedOne) return { ok: true, repo: namedOne, source: 'channel' };
  const named = repositoryNamedIn(text);
  if (named) {
    const fullName = `${named.owner}/${named.name}`;
    if (isRepoAllowed(fullName, config.repos)) return { ok: true, repo: named, source: 'message' };
    // A phrase that only looks like owner/name ("either/or") must not block a channel's own repository.
    if (!linked || text.includes('github.com/') || looksDeliberate(text, fullName)) return { ok: false, reason: 'not_allowed', named: fullName };
  }
  const [only, ...others] = own;
  if (only && others.length === 0) return { ok: true, repo: only, source: 'channel' };
  if (only) {
    const [picked, ...more] = namedShortly(text, own);
    return picked && more.length === 0 ? { ok: true, repo: picked, source: 'channel' } : { ok: false, reason: 'choose', candidates: own };
  }
  return { ok: false, reason: 'no_repository' };
}

/** The candidates a text names: by owner/name, else by a short name only one of them has. */
export function namedAmong(text: string, candidates: RepoRef[]): RepoRef[] {
  const byFullName = candidates.filter((repo) => namesRepository(text, `${repo.owner}/${repo.name}`));
  return byFullName.length > 0 ? byFullName : namedShortly(text, candidates);
}

function namedShortly(text: string, candidates: RepoRef[]): RepoRef[] {
  const unique = (repo: RepoRef) => candidates.filter((other) => other.name.toLowerCase() === repo.name.toLowerCase()).length === 1;
  return candidates.filter((repo) => unique(repo) && namesShortly(text, repo.name));
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `owner/name` in the text on its own or in a GitHub URL, not inside a longer name or a file path such as acme/api.ts. */
function namesRepository(text: string, fullName: string): boolean {
  return new RegExp(`(?<![\\w.-])${escapeRegExp(fullName)}(?![\\w-]|\\.\\w)`, 'i').test(text);
}

/** A repository's short name as a word of its own: not part of a path (src/api/x.ts), a file (api.ts) or a longer name. */
function namesShortly(text: string, name: string): boolean {
  return new RegExp(`(?<![\\w./-])${escapeRegExp(name)}(?![\\w/-]|\\.\\w)`, 'i').test(text);
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
