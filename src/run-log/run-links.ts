import { createHmac, timingSafeEqual } from 'node:crypto';
import type { EnvOptions } from '../config/env-options.js';

/**
 * Signed links to run pages: `${WRENCH_PUBLIC_URL}/runs/<id>?expires=<unix s>&sig=<HMAC-SHA256>`.
 * Whoever has the link (people who can see the thread) may read the run until it expires.
 */
export class RunLinks {
  constructor(
    private readonly secret: string,
    private readonly publicUrl: string | undefined,
    private readonly lifetimeMs: number,
  ) {}

  static fromEnv(env: EnvOptions): RunLinks | undefined {
    const secret = runLinkSecret(env);
    if (!secret) return undefined;
    return new RunLinks(secret, env.WRENCH_PUBLIC_URL, env.WRENCH_RUN_RETENTION_DAYS * 24 * 3600 * 1000);
  }

  /** The page's full link, or undefined when WRENCH_PUBLIC_URL is unset. */
  urlFor(runId: string, now = Date.now()): string | undefined {
    if (!this.publicUrl) return undefined;
    return `${this.publicUrl.replace(/\/+$/, '')}${this.pathFor(runId, Math.floor((now + this.lifetimeMs) / 1000))}`;
  }

  pathFor(runId: string, expiresUnix: number): string {
    return `/runs/${encodeURIComponent(runId)}?expires=${expiresUnix}&sig=${this.signature(runId, expiresUnix)}`;
  }

  /** Whether `expires` and `sig` (from the query) open run `runId` now. */
  verify(runId: string, expires: string | null, sig: string | null, now = Date.now()): 'ok' | 'expired' | 'invalid' {
    if (!expires || !sig || !/^\d{1,12}$/.test(expires)) return 'invalid';
    const expected = Buffer.from(this.signature(runId, Number(expires)));
    const given = Buffer.from(sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
    return Number(expires) * 1000 < now ? 'expired' : 'ok';
  }

  private signature(runId: string, expiresUnix: number): string {
    return createHmac('sha256', this.secret).update(`run-page\n${runId}\n${expiresUnix}`).digest('base64url');
  }
}

/** WRENCH_RUN_LINK_SECRET, or a key derived from the Slack signing secret (or app token) so no new setting is needed. */
export function runLinkSecret(env: EnvOptions): string | undefined {
  if (env.WRENCH_RUN_LINK_SECRET) return env.WRENCH_RUN_LINK_SECRET;
  const base = env.SLACK_SIGNING_SECRET ?? env.SLACK_APP_TOKEN;
  return base ? createHmac('sha256', base).update('wrench run-page links').digest('hex') : undefined;
}
