import { RequestError } from '@octokit/request-error';
import { createAppAuth } from '@octokit/auth-app';
import { Octokit } from '@octokit/rest';
import { WrenchError } from '../errors.js';

export interface AppCredentials {
  appId: string;
  privateKey: string;
  /** GITHUB_API_URL. */
  baseUrl: string;
  /** Tokens are renewed this long before GitHub says they expire. Default 5 minutes. */
  renewBeforeMs?: number;
  now?: () => number;
}

export interface InstallationToken {
  token: string;
  expiresAt: string;
  installationId: number;
  permissions: Record<string, string>;
}

type Request = Octokit['request'];

/** Failures surface as typed errors below; Octokit's own request log would only repeat them. */
const SILENT = { debug() {}, info() {}, warn() {}, error() {} };
type Route = Parameters<Request>[0];
type Parameters_ = Parameters<Request>[1];

/**
 * A GitHub App acting on many repositories: each repository's installation is looked up once
 * (GET /repos/{owner}/{repo}/installation with the App's JWT) and its installation token
 * (POST /app/installations/{id}/access_tokens) is reused until shortly before it expires.
 */
export class InstallationAuth {
  private readonly appAuth: ReturnType<typeof createAppAuth>;
  private readonly request: Request;
  private readonly installations = new Map<string, Promise<number>>();
  private readonly tokens: ReturnType<typeof expiringCache>;

  constructor(private readonly options: AppCredentials) {
    this.request = new Octokit({ baseUrl: options.baseUrl.replace(/\/$/, ''), userAgent: 'wrench', log: SILENT }).request;
    this.tokens = expiringCache(options.renewBeforeMs ?? 5 * 60_000, options.now ?? Date.now);
    this.appAuth = createAppAuth({
      appId: options.appId,
      privateKey: options.privateKey,
      request: this.request,
      cache: this.tokens,
    });
  }

  /** The App's own JWT, for /app routes. */
  async appToken(): Promise<string> {
    return (await this.appAuth({ type: 'app' })).token;
  }

  async installationId(owner: string, repo: string): Promise<number> {
    const key = `${owner}/${repo}`.toLowerCase();
    let id = this.installations.get(key);
    if (!id) {
      id = this.lookUpInstallation(owner, repo);
      this.installations.set(key, id);
      id.catch(() => this.installations.delete(key));
    }
    return id;
  }

  /**
   * Forgets a repository's installation and every cached token: GitHub refused one (401), as it does once the
   * App was reinstalled (a new installation id) or its tokens were revoked. The next request looks both up again.
   */
  forget(owner: string, repo: string): void {
    this.installations.delete(`${owner}/${repo}`.toLowerCase());
    this.tokens.clear();
  }

  /** The App's id (GITHUB_APP_ID). */
  get appId(): string {
    return this.options.appId;
  }

  /** A token for one repository's installation, cached until shortly before it expires. */
  async tokenFor(owner: string, repo: string): Promise<InstallationToken> {
    const installationId = await this.installationId(owner, repo);
    try {
      const auth = await this.appAuth({ type: 'installation', installationId });
      return { token: auth.token, expiresAt: auth.expiresAt, installationId, permissions: auth.permissions as Record<string, string> };
    } catch (error) {
      this.installations.delete(`${owner}/${repo}`.toLowerCase());
      throw new WrenchError(
        'github_app_token_failed',
        `Could not get an installation token for ${owner}/${repo} (${(error as Error).message}); check that the GitHub App is still installed there.`,
        { cause: error },
      );
    }
  }

  private async lookUpInstallation(owner: string, repo: string): Promise<number> {
    try {
      const response = await this.request('GET /repos/{owner}/{repo}/installation', {
        owner,
        repo,
        headers: { authorization: `bearer ${await this.appToken()}` },
      });
      return response.data.id;
    } catch (error) {
      const status = error instanceof RequestError ? error.status : undefined;
      if (status === 404) {
        throw new WrenchError(
          'github_app_not_installed',
          `The GitHub App (id ${this.options.appId}) is not installed on ${owner}/${repo}; install it on that repository (GitHub > Settings > Applications) or pick another repository.`,
        );
      }
      if (status === 401) {
        throw new WrenchError(
          'github_app_credentials',
          `GitHub refused the App's credentials (${(error as Error).message}); check GITHUB_APP_ID and the private key.`,
        );
      }
      throw error;
    }
  }

  /**
   * The Octokit auth strategy: requests under /repos/{owner}/{repo} carry that repository's installation
   * token, /app routes the App's JWT.
   */
  strategy() {
    const auth = async () => ({ type: 'app', token: await this.appToken() });
    const hook = async (request: Request, route: Route, parameters?: Parameters_) => {
      const endpoint = request.endpoint.merge(route as string, parameters);
      const url = request.endpoint.parse(endpoint).url;
      const repository = /\/repos\/([^/?#]+)\/([^/?#]+)/.exec(new URL(url, 'http://x').pathname);
      const [, owner = '', repo = ''] = (repository ?? []).map(decodeURIComponent);
      const send = async () => {
        endpoint.headers.authorization = repository ? `token ${(await this.tokenFor(owner, repo)).token}` : `bearer ${await this.appToken()}`;
        return request({ ...endpoint, url: endpoint.url ?? String(route) });
      };
      try {
        return await send();
      } catch (error) {
        // A revoked token (the App reinstalled): look the installation up again and try once more with a new token.
        if (!repository || !(error instanceof RequestError) || error.status !== 401) throw error;
        this.forget(owner, repo);
        return send();
      }
    };
    return Object.assign(auth, { hook });
  }
}

/**
 * @octokit/auth-app's token cache, but an entry is dropped `renewBeforeMs` before the expiry GitHub gave
 * (its default keeps every token 59 minutes, whatever its expiry).
 */
function expiringCache(renewBeforeMs: number, now: () => number) {
  const entries = new Map<string, string>();
  return {
    async get(key: string): Promise<string> {
      const value = entries.get(key);
      if (!value) return '';
      const expiresAt = Date.parse(value.split('|')[2] ?? '');
      if (!Number.isFinite(expiresAt) || expiresAt - renewBeforeMs <= now()) {
        entries.delete(key);
        return '';
      }
      return value;
    },
    async set(key: string, value: string): Promise<void> {
      entries.set(key, value);
    },
    clear(): void {
      entries.clear();
    },
  };
}
