import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EvalSetError, evalSetFiles, loadEvalSet } from '../../../bench/eval-set.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

const root = path.resolve(import.meta.dirname, '../../..');
const tsx = path.join(root, 'node_modules/tsx/dist/cli.mjs');

let dir: TempDir;
let good: string;
beforeAll(async () => {
  dir = await makeTempDir('wrench-eval-set-');
  good = path.join(dir.path, 'mine.jsonl');
  await writeFile(
    good,
    `${JSON.stringify({ text: 'add tests for formatDate in src/date.ts; npm test must pass', category: 'testing', verdict: 'well-formed', complexity: 'simple' })}\n\n`,
  );
});
afterAll(() => dir.remove());

/** Runs a bench as a person does, with only the environment given; never throws. */
async function bench(file: string, args: string[], env: Record<string, string> = {}) {
  return promisify(execFile)(process.execPath, [tsx, path.join(root, file), ...args], { cwd: root, env: { PATH: process.env.PATH, ...env } })
    .then(({ stdout, stderr }) => ({ code: 0, stdout, stderr }))
    .catch((error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }));
}

describe('evaluation sets for the benches', () => {
  it('are named on the command line first, else in WRENCH_EVAL_SET, never taken from a default place', () => {
    expect(evalSetFiles(['a.jsonl'], { WRENCH_EVAL_SET: 'b.jsonl' })).toEqual(['a.jsonl']);
    expect(evalSetFiles([], { WRENCH_EVAL_SET: `b.jsonl${path.delimiter}c.jsonl` })).toEqual(['b.jsonl', 'c.jsonl']);
    expect(evalSetFiles([], {})).toEqual([]);
  });

  it('reads labelled instructions, naming the file and line of anything else', async () => {
    expect(loadEvalSet(good)).toMatchObject({ name: 'mine', instructions: [{ category: 'testing' }] });
    expect(() => loadEvalSet(path.join(dir.path, 'absent.jsonl'))).toThrow(
      new EvalSetError(`cannot read the evaluation set ${dir.path}/absent.jsonl (ENOENT)`),
    );
    const bad = path.join(dir.path, 'bad.jsonl');
    await writeFile(bad, '{"text":"x","category":"testing","verdict":"well-formed","complexity":"simple"}\n{"text":"y"}\n');
    expect(() => loadEvalSet(bad)).toThrow(`${bad}:2 lacks category, verdict, complexity`);
  });

  it('bench/read-instructions.ts without a set says so in one line and exits 2; with one it prints its figures', async () => {
    const none = await bench('bench/read-instructions.ts', []);
    expect(none).toMatchObject({ code: 2, stdout: '' });
    expect(none.stderr).toBe('bench/read-instructions.ts: no evaluation set given: pass JSONL files as arguments or set WRENCH_EVAL_SET=FILE[:FILE]\n');
    const some = await bench('bench/read-instructions.ts', [], { WRENCH_EVAL_SET: good });
    expect(some.code).toBe(0);
    expect(some.stdout).toMatch(/^category right \(primary\) +1\/1 \(100%\)/m);
  });
});
