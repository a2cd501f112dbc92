import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

const projectRoot = path.resolve(import.meta.dirname, '../../..');
const vitestBin = path.join(projectRoot, 'node_modules/vitest/vitest.mjs');
const reporter = path.join(projectRoot, 'test/summary-reporter.ts');

const files: Record<string, string> = {
  'pass.test.ts': `import { expect, it } from 'vitest';\nit('passes', () => expect(1).toBe(1));\n`,
  'fail.test.ts': `import { expect, it } from 'vitest';\nit('fails', () => expect(1).toBe(2));\nit.skip('skipped', () => {});\n`,
  'missing-import.test.ts': `import { nothing } from './does-not-exist.js';\nimport { it } from 'vitest';\nit('never runs', () => void nothing);\n`,
  'syntax-error.test.ts': `import { it } from 'vitest';\nit('broken', () => { const = 1; });\n`,
  'before-all.test.ts': `import { beforeAll, describe, it } from 'vitest';\ndescribe('set-up', () => {\n  beforeAll(() => { throw new Error('set-up failed'); });\n  it('a', () => {});\n});\n`,
};

let fixture: TempDir;
let output: { code: number; stdout: string };

beforeAll(async () => {
  fixture = await makeTempDir('wrench-summary-');
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(fixture.path, name), text);
  await writeFile(path.join(fixture.path, 'vitest.config.mjs'), `export default { test: { include: ['*.test.ts'] } };\n`);
  output = await promisify(execFile)(process.execPath, [vitestBin, 'run', '--root', fixture.path, '--reporter', reporter], { cwd: fixture.path })
    .then(({ stdout }) => ({ code: 0, stdout }))
    .catch((error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }));
});

afterAll(() => fixture.remove());

it('counts test files that failed to load or set up in the summary line, next to failed tests', () => {
  expect(output.code).toBe(1);
  expect(output.stdout.trim().split('\n').at(-1)).toBe('tests: 1 passed, 1 failed, 2 skipped, 3 test file(s) failed to load or set up');
});
