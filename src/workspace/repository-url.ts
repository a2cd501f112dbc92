import { WrenchError } from '../errors.js';

const NAME = /^[A-Za-z0-9_.-]+$/;

export function assertRepositoryName(owner: string, repo: string): void {
  for (const part of [owner, repo]) {
    if (!NAME.test(part) || part === '.' || part === '..' || part.startsWith('-')) {
      throw new WrenchError('invalid_repository', `"${owner}/${repo}" is not a valid repository name; use owner/name with letters, digits, ".", "-" or "_".`);
    }
  }
}

/** `${gitBaseUrl}/${owner}/${repo}.git`, without trailing slashes or credentials in the base URL. */
export function repositoryUrl(gitBaseUrl: string, owner: string, repo: string): string {
  const name = repo.endsWith('.git') ? repo.slice(0, -'.git'.length) : repo;
  assertRepositoryName(owner, name);
  const base = gitBaseUrl
    .trim()
    .replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1')
    .replace(/\/+$/, '');
  if (!base) throw new WrenchError('invalid_git_base_url', 'GIT_BASE_URL is empty; set it to e.g. https://github.com.');
  return `${base}/${owner}/${name}.git`;
}
