import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commitAll } from '../../../src/workspace/commit-changes.js';
import { excludeSetupOutput, untrackedPaths } from '../../../src/workspace/setup-output.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

const requester = { name: 'Ada Lovelace', slackUserId: 'U012ADA' };

describe('the setup step output is never the change', () => {
  let dir: TempDir;
  let repo: string;
  beforeEach(async () => {
    dir = await makeTempDir();
    repo = path.join(dir.path, 'repo');
    // A repository without a .gitignore, with one untracked file of its own before setup.
    execFileSync('git', ['init', '-q', '-b', 'main', repo]);
    writeFileSync(path.join(repo, 'README.md'), '# demo\n');
    writeFileSync(path.join(repo, 'package.json'), '{"name":"demo"}\n');
    execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'add', '.']);
    execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init']);
  });
  afterEach(async () => {
    await dir.remove();
  });

  /** What `npm install` leaves in a repository: node_modules/ (with a fixture that looks like a secret) and a lock file. */
  function install() {
    mkdirSync(path.join(repo, 'node_modules', 'left-pad', 'test'), { recursive: true });
    writeFileSync(path.join(repo, 'node_modules', 'left-pad', 'index.js'), 'module.exports = 1;\n');
    writeFileSync(path.join(repo, 'node_modules', 'left-pad', 'test', 'fixture.txt'), 'password=hunter2\n');
    writeFileSync(path.join(repo, 'package-lock.json'), '{}\n');
  }

  it('an answer with no edits commits nothing', async () => {
    const before = await untrackedPaths(repo);
    install();
    expect((await excludeSetupOutput(repo, before)).sort()).toEqual(['node_modules/', 'package-lock.json']);
    expect(await commitAll({ dir: repo, message: 'nothing', requester })).toBeNull();
  });

  it('an edit of one file commits only that file; a file the agent creates is committed too', async () => {
    const before = await untrackedPaths(repo);
    install();
    await excludeSetupOutput(repo, before);
    writeFileSync(path.join(repo, 'README.md'), '# demo\n\nA demo.\n');
    const commit = await commitAll({ dir: repo, message: 'describe', requester });
    expect(commit?.filesChanged).toEqual(['README.md']);
    const tree = execFileSync('git', ['-C', repo, 'show', '--name-only', '--format=', 'HEAD'], { encoding: 'utf8' }).trim().split('\n');
    expect(tree).toEqual(['README.md']);
    writeFileSync(path.join(repo, 'NOTES.md'), 'new\n');
    expect((await commitAll({ dir: repo, message: 'notes', requester }))?.filesChanged).toEqual(['NOTES.md']);
  });

  it("what was untracked before setup stays the agent's to commit; excludes are anchored and not repeated", async () => {
    writeFileSync(path.join(repo, 'todo.txt'), 'mine\n');
    const before = await untrackedPaths(repo);
    install();
    await excludeSetupOutput(repo, before);
    await excludeSetupOutput(repo, before);
    const exclude = readFileSync(path.join(repo, '.git', 'info', 'exclude'), 'utf8');
    expect(exclude.split('\n').filter((l) => l === '/node_modules/')).toHaveLength(1);
    expect((await commitAll({ dir: repo, message: 'todo', requester }))?.filesChanged).toEqual(['todo.txt']);
  });
});
