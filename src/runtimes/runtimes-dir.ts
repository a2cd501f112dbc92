import path from 'node:path';
import type { Config } from '../config/load-config.js';
import { NodeRuntimes } from './node-runtimes.js';

const shared = new Map<string, NodeRuntimes>();

/** The Node.js versions this process provisions, one cache per folder (WRENCH_RUNTIMES_DIR, default WRENCH_DATA_DIR/runtimes). */
export function nodeRuntimesFor(config: Pick<Config, 'env' | 'dataDir'>): NodeRuntimes {
  const root = config.env.WRENCH_RUNTIMES_DIR ? path.resolve(config.env.WRENCH_RUNTIMES_DIR) : path.join(config.dataDir, 'runtimes');
  let runtimes = shared.get(root);
  if (!runtimes) {
    runtimes = new NodeRuntimes(root);
    shared.set(root, runtimes);
  }
  return runtimes;
}
