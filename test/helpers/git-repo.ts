import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Runs git in `cwd` and returns its trimmed output. */
export const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

/** A small Node project whose one test passes: `add.js` and `add.test.js`, run by `node --test`. */
export const ADD_PROJECT: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'demo', private: true, scripts: { test: 'node --test' } }),
  'add.js': 'exports.add = (a, b) => a + b;\n',
  'add.test.js':
    "const test = require('node:test');\nconst assert = require('node:assert');\nconst { add } = require('./add.js');\ntest('adds', () => assert.strictEqual(add(1, 2), 3));\n",
};

/** A git repository at `dir` (made if missing) holding `files` in one commit on `main`; returns `dir`. */
export function makeRepo(dir: string, files: Record<string, string>, message = 'init'): string {
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
  git(dir, 'add', '-A');
  git(dir, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', message);
  return dir;
}
