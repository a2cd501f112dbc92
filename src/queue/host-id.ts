import { hostname } from 'node:os';
import type { EnvOptions } from '../config/env-options.js';

/** This worker's name: in the host-affinity heartbeats, and in a thread told where a refused push's bundle is kept. */
export function hostId(env: Pick<EnvOptions, 'WRENCH_HOST_ID'>): string {
  return env.WRENCH_HOST_ID ?? `${hostname()}-${process.pid}`;
}
