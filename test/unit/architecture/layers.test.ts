import path from 'node:path';
import { fileURLToPath } from 'node:url';
import madge from 'madge';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * The layers, top to bottom: bin (the entry) → app (composition root: service start-up and the CLI) → handlers and
 * runners (side by side, neither knowing the other) → src (the shared core). Imports point down only.
 */
const FORBIDDEN: { from: string; to: string[]; why: string }[] = [
  { from: 'app/', to: ['bin/'], why: 'the composition root is started by bin, not the other way' },
  { from: 'handlers/', to: ['bin/', 'app/', 'runners/'], why: 'handlers ack fast and hand work over through the queue' },
  { from: 'runners/', to: ['bin/', 'app/', 'handlers/'], why: 'runners do the work and never call back into handlers' },
  { from: 'src/', to: ['bin/', 'app/', 'handlers/', 'runners/'], why: 'src is the shared core under everything' },
  { from: 'src/config/', to: ['src/instruction/', 'src/monitoring/'], why: 'configuration sits under the features it configures' },
  { from: 'src/queue/', to: ['src/pagerduty/'], why: 'the queue carries payloads, it does not reach into vendors' },
  { from: 'src/verification/', to: ['src/warm-cache/'], why: 'warm caches build on verification, not the reverse' },
];

describe('layers', () => {
  let graph: Record<string, string[]>;

  beforeAll(async () => {
    const result = await madge(['bin', 'app', 'src', 'handlers', 'runners'], {
      fileExtensions: ['ts'],
      tsConfig: path.join(ROOT, 'tsconfig.json'),
      baseDir: ROOT,
    });
    graph = result.obj();
  }, 60_000);

  it('reads the whole product (the rule below would pass vacuously on an empty graph)', () => {
    expect(graph['app/service/start-service.ts']).toContain('handlers/handler-deps.ts');
    expect(Object.keys(graph).filter((file) => file.startsWith('src/')).length).toBeGreaterThan(100);
  });

  it.each(FORBIDDEN)('$from imports nothing from $to: $why', ({ from, to }) => {
    const upward = Object.entries(graph).flatMap(([file, imports]) =>
      file.startsWith(from) ? imports.filter((target) => to.some((layer) => target.startsWith(layer))).map((target) => `${file} → ${target}`) : [],
    );
    expect(upward).toEqual([]);
  });
});
