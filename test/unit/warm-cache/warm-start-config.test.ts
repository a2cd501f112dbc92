import { describe, expect, it } from 'vitest';
import { configFileSchema } from '../../../src/config/config-file.js';
import type { Config } from '../../../src/config/load-config.js';
import { warmStart } from '../../../runners/verify-change.js';
import { BaselineCache } from '../../../src/warm-cache/baseline-cache.js';
import { DependencySnapshots } from '../../../src/warm-cache/dependency-snapshots.js';

const configWith = (file: unknown) => ({ config: { file: configFileSchema.parse(file), dataDir: '/data', env: {}, configPath: null } as unknown as Config });

describe('cache switches', () => {
  it('keeps baselines and dependencies by default', () => {
    expect(configFileSchema.parse({}).cache).toMatchObject({ baseline: true, dependencies: true, trees: true, treesPerRepository: 8 });
    const warm = warmStart(configWith({}), 'acme/web', 'abc123');
    expect(warm.baselines).toBeInstanceOf(BaselineCache);
    expect(warm.dependencies).toBeInstanceOf(DependencySnapshots);
  });

  it('turns each cache off on its own', () => {
    expect(warmStart(configWith({ cache: { baseline: false } }), 'acme/web', 'abc').baselines).toBeUndefined();
    expect(warmStart(configWith({ cache: { baseline: false } }), 'acme/web', 'abc').dependencies).toBeDefined();
    expect(warmStart(configWith({ cache: { dependencies: false } }), 'acme/web', 'abc').dependencies).toBeUndefined();
  });

  it('refuses an unknown cache key with a clear error', () => {
    const result = configFileSchema.safeParse({ cache: { sheds: true } });
    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error?.issues)).toContain('sheds');
  });
});
