import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectOutputFiles } from '../../../src/analysis/output-files.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

describe('collectOutputFiles', () => {
  let temp: TempDir;
  beforeEach(async () => {
    temp = await makeTempDir('wrench-outputs-');
  });
  afterEach(() => temp.remove());

  it('shares reports and charts (report.md first), never follows symbolic links, and skips other types', async () => {
    const out = path.join(temp.path, 'wrench-output');
    await mkdir(path.join(out, 'charts'), { recursive: true });
    await writeFile(path.join(out, 'notes.md'), '# Notes\n');
    await writeFile(path.join(out, 'report.md'), '# Report\n\n| a | b |\n|---|---|\n| 1 | 2 |\n');
    await writeFile(path.join(out, 'charts', 'bar.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    await writeFile(path.join(out, 'model.pkl'), 'binary');
    await writeFile(path.join(temp.path, 'secret.txt'), 'do not share');
    await symlink(path.join(temp.path, 'secret.txt'), path.join(out, 'leak.txt'));

    const files = await collectOutputFiles(temp.path);
    expect(files.attachments.map((a) => [a.filename, a.kind])).toEqual([
      ['report.md', 'text'],
      ['notes.md', 'text'],
      ['charts-bar.png', 'image'],
    ]);
    expect(files.report?.path).toBe('wrench-output/report.md');
    expect(files.skipped).toEqual([{ path: 'wrench-output/model.pkl', why: 'type' }]);
    expect(JSON.stringify(files)).not.toContain('do not share');
  });

  it('shares nothing when the output folder is missing or is itself a link', async () => {
    expect((await collectOutputFiles(temp.path)).attachments).toEqual([]);
    await mkdir(path.join(temp.path, 'elsewhere'));
    await writeFile(path.join(temp.path, 'elsewhere', 'report.md'), '# x\n');
    await symlink(path.join(temp.path, 'elsewhere'), path.join(temp.path, 'wrench-output'));
    expect((await collectOutputFiles(temp.path)).attachments).toEqual([]);
  });
});
