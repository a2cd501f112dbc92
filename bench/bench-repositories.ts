import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

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

/**
 * Repository (b) of the benchmarks, written as a git work tree in `work` (an empty directory): `files` small TypeScript
 * files in 500-file folders, committed in 20 commits on `main`.
 */
export async function writeLargeRepository(work: string, files = 20_000): Promise<void> {
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 'Bench',
    GIT_AUTHOR_EMAIL: 'bench@example.com',
    GIT_COMMITTER_NAME: 'Bench',
    GIT_COMMITTER_EMAIL: 'bench@example.com',
  };
  const sh = (command: string) => promisify(execFile)('sh', ['-c', command], { cwd: work, env, maxBuffer: 64 * 1024 * 1024 });
  await sh('git init --quiet -b main');
  const perCommit = Math.ceil(files / 20);
  for (let c = 0; c * perCommit < files; c++) {
    for (let i = c * perCommit; i < Math.min(files, (c + 1) * perCommit); i++) {
      const dir = path.join(work, `pkg${Math.floor(i / 500)}`, `mod${Math.floor(i / 50) % 10}`);
      await mkdir(dir, { recursive: true });
      await writeFile(
        path.join(dir, `file${i}.ts`),
        `// file ${i}\nexport const value${i} = ${i};\nexport function f${i}(x: number): number {\n  return x * ${i} + ${c};\n}\n`,
      );
    }
    await sh(`git add -A && git commit --quiet -m "Commit ${c + 1}: ${perCommit} files"`);
  }
}
