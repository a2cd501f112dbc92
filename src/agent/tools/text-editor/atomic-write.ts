import { randomBytes } from 'node:crypto';
import { chmod, chown, mkdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Replace `file` with `text` atomically: write a temporary file in the same directory, give it
 * the mode (and owner, when allowed) of the file it replaces, then rename it over.
 */
export async function atomicWrite(file: string, text: string): Promise<void> {
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true });
  const previous = await stat(file).catch(() => undefined);
  const temp = path.join(dir, `.${path.basename(file)}.wrench-${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temp, text, { flag: 'wx', mode: previous ? previous.mode & 0o7777 : 0o666 });
    if (previous) {
      await chmod(temp, previous.mode & 0o7777);
      await chown(temp, previous.uid, previous.gid).catch(() => undefined);
    }
    await rename(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}
