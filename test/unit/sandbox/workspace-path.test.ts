import { mkdir, realpath, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveWorkspacePath } from '../../../src/sandbox/workspace-path.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

describe('resolveWorkspacePath', () => {
  let dir: TempDir;
  let root: string;
  beforeAll(async () => {
    dir = await makeTempDir();
    root = await realpath(dir.path);
    await mkdir(path.join(root, 'src'));
    await writeFile(path.join(root, 'src', 'a.ts'), '');
    await symlink('/etc', path.join(root, 'etc-link'));
    await symlink(path.join(root, 'src'), path.join(root, 'src-link'));
    await symlink('/nonexistent/target', path.join(root, 'dangling'));
  });
  afterAll(() => dir.remove());

  it('resolves relative and absolute paths inside the workspace, existing or not', async () => {
    expect(await resolveWorkspacePath(root, 'src/a.ts')).toEqual({ ok: true, path: path.join(root, 'src', 'a.ts') });
    expect(await resolveWorkspacePath(root, path.join(root, 'src'))).toEqual({ ok: true, path: path.join(root, 'src') });
    expect(await resolveWorkspacePath(root, 'new/dir/file.ts')).toEqual({ ok: true, path: path.join(root, 'new', 'dir', 'file.ts') });
    expect(await resolveWorkspacePath(root, '.')).toEqual({ ok: true, path: root });
    expect(await resolveWorkspacePath(root, 'src-link/a.ts')).toEqual({ ok: true, path: path.join(root, 'src', 'a.ts') });
  });

  it('refuses .., absolute paths elsewhere, and symlinks pointing out', async () => {
    for (const target of ['../outside', 'src/../../x', '/etc/passwd', 'etc-link/passwd', 'etc-link', 'dangling', 'dangling/x'])
      expect((await resolveWorkspacePath(root, target)).ok, target).toBe(false);
  });

  it('accepts a root given through a symbolic link, and absolute paths through that link', async () => {
    const link = path.join(root, 'src', 'root-link');
    await symlink(root, link);
    expect(await resolveWorkspacePath(link, 'src/a.ts')).toEqual({ ok: true, path: path.join(root, 'src', 'a.ts') });
    expect(await resolveWorkspacePath(link, path.join(link, 'src', 'a.ts'))).toEqual({ ok: true, path: path.join(root, 'src', 'a.ts') });
  });
});
