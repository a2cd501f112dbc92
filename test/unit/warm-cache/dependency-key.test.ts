import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dependencyKey } from '../../../src/warm-cache/dependency-key.js';
import { isTreePattern } from '../../../src/config/tree-pattern.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

describe('dependencyKey', () => {
  let tree: TempDir;
  beforeEach(async () => {
    tree = await makeTempDir('wrench-dependency-key-');
    await writeFile(path.join(tree.path, 'package.json'), '{}');
  });
  afterEach(() => tree.remove());
  const key = (keyFiles?: string[]) => dependencyKey(tree.path, 'npm install', keyFiles);

  it.each(['bun.lock', 'bun.lockb', 'pnpm-lock.yaml', 'yarn.lock', 'npm-shrinkwrap.json', 'uv.lock', 'Pipfile.lock', 'poetry.lock', 'go.sum', 'Cargo.lock'])(
    'follows %s',
    async (file) => {
      const before = await key();
      await writeFile(path.join(tree.path, file), 'locked 1');
      const once = await key();
      await writeFile(path.join(tree.path, file), 'locked 2');
      expect(new Set([before, once, await key()]).size).toBe(3);
    },
  );

  it('follows every requirements file at the top (requirements-prod.txt, dev-requirements.txt), not others', async () => {
    const before = await key();
    await writeFile(path.join(tree.path, 'requirements-prod.txt'), 'flask==3.0\n');
    const prod = await key();
    await writeFile(path.join(tree.path, 'dev-requirements.txt'), 'pytest\n');
    const dev = await key();
    await writeFile(path.join(tree.path, 'notes.txt'), 'unrelated\n');
    expect(new Set([before, prod, dev]).size).toBe(3);
    expect(await key()).toBe(dev);
  });

  it('follows the files and globs a repository adds, inside the tree only', async () => {
    await mkdir(path.join(tree.path, 'prisma'));
    await writeFile(path.join(tree.path, 'prisma', 'schema.prisma'), 'model A {}\n');
    const plain = await key();
    const a = await key(['prisma/*.prisma']);
    expect(a).not.toBe(plain);
    expect(await key()).toBe(plain);
    await writeFile(path.join(tree.path, 'prisma', 'schema.prisma'), 'model B {}\n');
    expect(await key()).toBe(plain);
    expect(await key(['prisma/*.prisma'])).not.toBe(a);
    // A symbolic link to a file outside the tree is not read.
    const linked = await key(['prisma/**']);
    await symlink('/etc/hostname', path.join(tree.path, 'prisma', 'outside'));
    expect(await key(['prisma/**'])).toBe(linked);
    expect(['prisma/schema.prisma', '**/*.graphql', 'a/b/*'].every(isTreePattern)).toBe(true);
    expect(['/etc/passwd', '../x', 'a/../../b', ''].some(isTreePattern)).toBe(false);
  });
});
