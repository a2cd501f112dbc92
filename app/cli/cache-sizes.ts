import type { Config } from '../../src/config/load-config.js';
import type { Logger } from '../../src/logging/logger.js';
import { cacheEntries, CACHE_NAMES, type CacheName } from '../../src/warm-cache/evict-caches.js';

const SWITCH: Record<CacheName, 'trees' | 'dependencies' | 'baseline' | 'downloads'> = {
  trees: 'trees',
  dependencies: 'dependencies',
  baselines: 'baseline',
  downloads: 'downloads',
};

/** "trees 1.2 GB in 3 (cap 20 GB); dependencies ...; baselines ..." for this machine's warm-start caches. */
export async function cacheSizes(config: Config, log: Logger): Promise<string> {
  const cache = config.file.cache;
  const parts: string[] = [];
  for (const name of CACHE_NAMES) {
    const entries = await cacheEntries(config.dataDir, name, log);
    const bytes = entries.reduce((sum, entry) => sum + entry.bytes, 0);
    const off = cache[SWITCH[name]] ? '' : ', off';
    parts.push(`${name} ${humanBytes(bytes)} in ${entries.length} (cap ${cache.maxSizeGb[name]} GB${off})`);
  }
  return `${parts.join('; ')}; entries unused for ${cache.maxAgeDays} days are removed`;
}

export function humanBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}
