import { createPublicKey, randomBytes, verify, type KeyObject } from 'node:crypto';

export interface FakeAppOptions {
  id: number;
  slug: string;
  /** PEM public key of the App: every JWT must be signed (RS256) with its private key. */
  publicKey: string;
  /** `owner/repo` (or `owner` for all its repositories) -> installation id. */
  installations: Record<string, number>;
  permissions?: Record<string, 'read' | 'write'>;
  /** Lifetime of installation tokens (GitHub: one hour). */
  tokenTtlSeconds?: number;
}

export interface IssuedToken {
  token: string;
  installationId: number;
  expiresAt: number;
}

const DEFAULT_PERMISSIONS = { contents: 'write', pull_requests: 'write', issues: 'write', checks: 'read', actions: 'read', metadata: 'read' } as const;

/** The App side of the fake: JWTs checked as GitHub checks them, installations, installation tokens. */
export class FakeApp {
  readonly tokens: IssuedToken[] = [];
  private readonly key: KeyObject;

  constructor(readonly options: FakeAppOptions) {
    this.key = createPublicKey(options.publicKey);
  }

  get login(): string {
    return `${this.options.slug}[bot]`;
  }

  get permissions(): Record<string, string> {
    return this.options.permissions ?? { ...DEFAULT_PERMISSIONS };
  }

  looksLikeJwt(token: string): boolean {
    return token.split('.').length === 3;
  }

  /** The reason GitHub would refuse this JWT, or null when it is good. */
  jwtProblem(jwt: string, now = Date.now()): string | null {
    const [header = '', payload = '', signature = ''] = jwt.split('.');
    let claims: { iat?: number; exp?: number; iss?: string | number };
    try {
      const head = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: string };
      if (head.alg !== 'RS256') return "'alg' must be RS256";
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      return 'A JSON web token could not be decoded';
    }
    const good = verify('RSA-SHA256', Buffer.from(`${header}.${payload}`), this.key, Buffer.from(signature, 'base64url'));
    if (!good) return 'A JSON web token could not be decoded';
    const seconds = Math.floor(now / 1000);
    if (String(claims.iss) !== String(this.options.id)) return "'Issuer' claim ('iss') must be an Integer";
    if (typeof claims.exp !== 'number' || claims.exp <= seconds)
      return "'Expiration time' claim ('exp') must be a numeric value representing the future time at which the assertion expires";
    if (claims.exp - (claims.iat ?? 0) > 600) return "'Expiration time' claim ('exp') is too far in the future";
    if (typeof claims.iat !== 'number' || claims.iat > seconds + 60)
      return "'Issued at' claim ('iat') must be an Integer representing the time that the assertion was issued";
    return null;
  }

  installationFor(owner: string, repo: string): number | undefined {
    return this.options.installations[`${owner}/${repo}`] ?? this.options.installations[owner];
  }

  issueToken(installationId: number, now = Date.now()): IssuedToken {
    const issued = { token: `ghs_${randomBytes(18).toString('hex')}`, installationId, expiresAt: now + (this.options.tokenTtlSeconds ?? 3600) * 1000 };
    this.tokens.push(issued);
    return issued;
  }

  /**
   * The App uninstalled and installed again on `account` (an `owner` or `owner/repo` key): a new installation id,
   * and every token of the old installation revoked (GitHub answers 401 Bad credentials to them).
   */
  reinstall(account: string, installationId: number): void {
    const old = this.options.installations[account];
    this.options.installations[account] = installationId;
    for (let i = this.tokens.length - 1; i >= 0; i -= 1) if (this.tokens[i]!.installationId === old) this.tokens.splice(i, 1);
  }

  /** The App uninstalled from `account`: GitHub no longer knows an installation there and revokes its tokens. */
  uninstall(account: string): void {
    const old = this.options.installations[account];
    delete this.options.installations[account];
    for (let i = this.tokens.length - 1; i >= 0; i -= 1) if (this.tokens[i]!.installationId === old) this.tokens.splice(i, 1);
  }

  /** The installation token, when it is one this fake issued and it has not expired. */
  liveToken(token: string, now = Date.now()): IssuedToken | undefined {
    return this.tokens.find((t) => t.token === token && t.expiresAt > now);
  }

  /** Whether an installation token may act on this repository. */
  covers(issued: IssuedToken, owner: string, repo: string): boolean {
    return this.installationFor(owner, repo) === issued.installationId;
  }
}
