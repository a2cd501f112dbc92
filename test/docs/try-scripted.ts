/**
 * `npm run try`: Wrench's `wrench run` on a local repository with no Slack, no Redis, no GitHub and no model key. It
 * makes a small Node.js repository in a temporary folder, serves a scripted model (the Anthropic Messages API fake of
 * test/fakes, playing four steps: read the code, write a test, run the tests, finish), and runs the built
 * `dist/bin/wrench.js run --repo <that folder> "<task>"` against it: the real pipeline (sandbox, the repository's
 * checks before and after, a commit on a branch of the folder) prints its progress and report here. With your own key,
 * the same command on your own repository is `npx wrench run --repo PATH "task"` (docs/front-doors.md).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startAnthropicFake } from '../fakes/anthropic-fake.js';
import { makeRepo } from '../helpers/git-repo.js';
import { DEMO_SOURCE, demoScript } from './demo-run.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TASK = 'add a test for formatBytes in src/format.js covering 0 bytes; npm test must pass';

const folder = mkdtempSync(path.join(tmpdir(), 'wrench-try-'));
const repo = makeRepo(path.join(folder, 'web'), {
  'package.json': `${JSON.stringify({ name: 'web', version: '1.0.0', type: 'module', scripts: { test: 'node --test' } }, null, 2)}\n`,
  'src/format.js': DEMO_SOURCE,
});
const model = await startAnthropicFake(demoScript());

console.log(`$ wrench run --repo ${repo} "${TASK}"   (the model: a scripted fake at ${model.url})\n`);
const code = await new Promise<number>((resolve) => {
  const child = spawn(process.execPath, [path.join(ROOT, 'dist/bin/wrench.js'), 'run', '--repo', repo, TASK], {
    stdio: 'inherit',
    cwd: folder,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ANTHROPIC_API_KEY: 'sk-ant-scripted-not-a-real-key',
      ANTHROPIC_BASE_URL: model.url,
      WRENCH_READER_MODEL: 'none',
      WRENCH_DATA_DIR: path.join(folder, 'data'),
    },
  });
  child.on('exit', (status) => resolve(status ?? 1));
});
await model.stop();
console.log(`\nwrench run exited ${code}. The repository is ${repo}: see its branches with git -C ${repo} log --oneline --all`);
process.exitCode = code;
