import { wellFormedText } from './well-formed-text.js';

/**
 * The one function every outbound text passes through: Slack messages, blocks and files, PR titles,
 * bodies and comments, PagerDuty notes and logs. It masks the exact values of configured secrets and
 * well-known token shapes. What it returns is well-formed text (./well-formed-text.ts): a lone surrogate (half an
 * emoji cut by someone's truncation, or sent on purpose) becomes U+FFFD and control characters such as NUL are dropped,
 * so no store, API or git down the line chokes on it.
 */
const MASK = '[redacted]';

const TOKEN_SHAPES: RegExp[] = [
  /xox[abposr]-[A-Za-z0-9-]{8,}/g, // Slack bot, user, app-config tokens
  /xapp-[A-Za-z0-9-]{8,}/g, // Slack app-level tokens
  /\bgh[opsur]_[A-Za-z0-9]{20,}\b/g, // GitHub tokens
  /\bgithub_pat_[A-Za-z0-9_]{20,}\b/g,
  /\bsk-ant-[A-Za-z0-9_-]{16,}/g, // Anthropic
  /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g, // AWS access key ids
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, // JWTs
  /(https?:\/\/)[^\s:@/]+:[^\s@/]+@/g, // credentials in URLs
];

/** `password = "hunter2hunter2"`, `API_KEY: abcd...`: long values assigned to secret-sounding names. */
const ASSIGNED_SECRET =
  /\b([A-Za-z0-9_.-]*(?:key|token|secret|passwd|password|pwd|credential|auth)[A-Za-z0-9_.-]*)(["']?\s*[:=]\s*["']?)([A-Za-z0-9+/_.~-]{16,})/gi;

export interface Redactor {
  (text: string): string;
  /** Redacts every string inside a JSON-like value (Block Kit blocks, API arguments). */
  deep<T>(value: T): T;
}

export function createRedactor(secrets: Iterable<string | undefined> = []): Redactor {
  const exact = [...new Set([...secrets].filter((s): s is string => !!s && s.length >= 6))].sort((a, b) => b.length - a.length);

  const redact = ((text: string): string => {
    if (!text) return text;
    let out = wellFormedText(text);
    for (const secret of exact) out = out.split(secret).join(MASK);
    for (const shape of TOKEN_SHAPES) {
      out = out.replace(shape, (match, scheme?: string) => (typeof scheme === 'string' && match.startsWith(scheme) ? `${scheme}${MASK}@` : MASK));
    }
    return out.replace(ASSIGNED_SECRET, (match, name: string, sep: string, value: string) => (looksLikeSecretValue(value) ? `${name}${sep}${MASK}` : match));
  }) as Redactor;

  redact.deep = <T>(value: T): T => deepMap(value, redact) as T;
  return redact;
}

function looksLikeSecretValue(value: string): boolean {
  if (/^[a-z]+$/.test(value) || /^\d+$/.test(value)) return false;
  return shannonEntropy(value) >= 3.5;
}

function shannonEntropy(value: string): number {
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let entropy = 0;
  for (const count of counts.values()) {
    const p = count / value.length;
    entropy -= p * Math.log2(p);
  }
  return entropy;
}

function deepMap(value: unknown, redact: (s: string) => string): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((item) => deepMap(item, redact));
  // An Error's message and stack are not enumerable: keep them (as pino's serializer would), redacted.
  if (value instanceof Error)
    return deepMap(
      { ...value, type: value.name, message: value.message, stack: value.stack, ...(value.cause !== undefined ? { cause: value.cause } : {}) },
      redact,
    );
  if (value && typeof value === 'object' && !(value instanceof Buffer) && !(value instanceof Uint8Array)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, deepMap(v, redact)]));
  }
  return value;
}

/** A credential Wrench holds, with the name of the setting it came from (for messages that must not show it). */
export interface NamedSecret {
  name: string;
  value: string;
}

/** The secrets of a configuration: every variable whose name says it holds a credential, and REDIS_URL's password. */
export function secretsOf(env: Record<string, unknown>): NamedSecret[] {
  const named = Object.entries(env)
    .filter(([name]) => /TOKEN|SECRET|KEY|PASSWORD/i.test(name) && !/_PATH$|_FILE$/i.test(name))
    .flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((v) => ({ name, value: v as unknown })))
    .filter((s): s is NamedSecret => typeof s.value === 'string' && s.value.length > 0);
  const redisPassword = urlPassword(env.REDIS_URL);
  return redisPassword ? [...named, { name: 'REDIS_URL password', value: redisPassword }] : named;
}

/** The secret values of a configuration (see secretsOf). */
export function secretValuesOf(env: Record<string, unknown>): string[] {
  return secretsOf(env).map((secret) => secret.value);
}

function urlPassword(url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined;
  try {
    return decodeURIComponent(new URL(url).password) || undefined;
  } catch {
    return undefined;
  }
}
