/**
 * Repository (a) of the benchmarks: Node with real npm dependencies (vitest, zod, date-fns; the npm registry must be
 * reachable) and a vitest suite of 24 tests, without a lock file (its setup step is `npm install`).
 */
export function nodeRepositoryFiles(): Record<string, string> {
  const pkg = {
    name: 'warm-node',
    version: '1.0.0',
    private: true,
    type: 'module',
    scripts: { test: 'vitest run' },
    dependencies: { zod: '^3.23.8', 'date-fns': '^3.6.0' },
    devDependencies: { vitest: '^2.1.9' },
  };
  const files: Record<string, string> = { 'package.json': `${JSON.stringify(pkg, null, 2)}\n`, '.gitignore': 'node_modules/\n' };
  for (let i = 0; i < 12; i++) {
    files[`src/module${i}.js`] =
      `import { z } from 'zod';\nimport { addDays, formatISO } from 'date-fns';\nexport const schema${i} = z.object({ n: z.number().int() });\nexport const later${i} = (date) => formatISO(addDays(date, ${i}), { representation: 'date' });\n`;
    files[`test/module${i}.test.js`] =
      `import { describe, expect, it } from 'vitest';\nimport { schema${i}, later${i} } from '../src/module${i}.js';\ndescribe('module${i}', () => {\n  it('parses', () => expect(schema${i}.parse({ n: ${i} })).toEqual({ n: ${i} }));\n  it('adds days', () => expect(later${i}(new Date(2024, 0, 1))).toBe('2024-01-${String(1 + i).padStart(2, '0')}'));\n});\n`;
  }
  return files;
}
