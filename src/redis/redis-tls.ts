import { readFileSync } from 'node:fs';
import type { RedisOptions } from 'ioredis';
import { WrenchError } from '../errors.js';

export interface RedisTlsEnv {
  REDIS_URL?: string;
  /** PEM file of the certificate authority that signed a `rediss://` server's certificate; default: the system's CAs. */
  WRENCH_REDIS_CA_FILE?: string;
}

/**
 * The ioredis options every Wrench connection to REDIS_URL adds to the URL: for `rediss://` with
 * WRENCH_REDIS_CA_FILE, TLS that trusts that CA (the server's name is still checked). The URL itself
 * carries the password (`redis://:pw@host:port`, `redis://user:pw@host:port`) and turns TLS on.
 */
export function redisTlsOptions(env: RedisTlsEnv): RedisOptions {
  const caFile = env.WRENCH_REDIS_CA_FILE;
  if (!caFile) return {};
  if (!env.REDIS_URL?.startsWith('rediss://')) {
    throw new WrenchError(
      'redis_ca_without_tls',
      'WRENCH_REDIS_CA_FILE is set, but REDIS_URL does not start with rediss://; use rediss://host:port for a TLS Redis, or unset WRENCH_REDIS_CA_FILE.',
    );
  }
  let ca: Buffer;
  try {
    ca = readFileSync(caFile);
  } catch (error) {
    throw new WrenchError(
      'redis_ca_unreadable',
      `WRENCH_REDIS_CA_FILE points at ${caFile}, which cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`,
    );
  }
  if (!ca.toString('utf8').includes('-----BEGIN CERTIFICATE-----')) {
    throw new WrenchError('redis_ca_unreadable', `WRENCH_REDIS_CA_FILE: ${caFile} is not a PEM certificate (-----BEGIN CERTIFICATE-----).`);
  }
  return { tls: { ca } };
}
