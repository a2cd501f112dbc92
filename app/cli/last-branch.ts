import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The branch the last `wrench run` left for each repository (local path or owner/name), so `--continue` picks it
 * up. Kept in `<dataDir>/cli/last-branches.json`.
 */
export class LastBranches {
  private readonly file: string;
  constructor(dataDir: string) {
    this.file = path.join(dataDir, 'cli', 'last-branches.json');
  }

  async get(repository: string): Promise<string | undefined> {
    return (await this.read())[repository];
  }

  async set(repository: string, branch: string): Promise<void> {
    const all = { ...(await this.read()), [repository]: branch };
    await mkdir(path.dirname(this.file), { recursive: true });
    const temp = `${this.file}.${process.pid}`;
    await writeFile(temp, `${JSON.stringify(all, null, 2)}\n`);
    await rename(temp, this.file);
  }

  private async read(): Promise<Record<string, string>> {
    const text = await readFile(this.file, 'utf8').catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? '{}' : Promise.reject(error)));
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, string>) : {};
  }
}
