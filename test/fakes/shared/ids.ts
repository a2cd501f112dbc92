import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A random id in the style of Slack and PagerDuty: `prefix` then upper-case letters and digits. */
export function upperId(prefix: string, length = 8): string {
  return prefix + pick(ALPHABET, length);
}

export function base62Id(prefix: string, length = 24): string {
  return prefix + pick(BASE62, length);
}

function pick(alphabet: string, length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const byte of bytes) out += alphabet[byte % alphabet.length];
  return out;
}
