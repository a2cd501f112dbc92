import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { WrenchError } from '../errors.js';

/** Where the embedded Redis keeps its password: `${dataDir}/redis/password`, mode 0600. */
export function redisPasswordPath(dataDir: string): string {
  return path.join(dataDir, 'redis', 'password');
}

/**
 * The embedded Redis's password: generated once (32 random bytes, hex) into a file only this user can read,
 * and the same on every later start, so the append-only data and running workers keep working across restarts.
 */
export function readOrCreateRedisPassword(dataDir: string): string {
  const file = redisPasswordPath(dataDir);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  // An older or hand-made file may be readable by others: tighten it before trusting it.
  chmodSync(file, 0o600);
  const password = readFileSync(file, 'utf8').trim();
  if (!/^[A-Za-z0-9]{16,}$/.test(password)) {
    throw new WrenchError(
      'redis_password_invalid',
      `${file} does not hold a usable Redis password (16 or more letters and digits); delete it and Wrench writes a new one on the next start.`,
    );
  }
  return password;
}
