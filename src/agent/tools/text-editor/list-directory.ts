import { readdir } from 'node:fs/promises';
import path from 'node:path';

const EXCLUDED = new Set(['node_modules']);

/** Files and directories up to `depth` levels below `dir`, hidden items and node_modules excluded; directories end in "/". */
export async function listDirectory(dir: string, depth = 2, limit = 1_000): Promise<{ entries: string[]; more: number }> {
  const entries: string[] = [];
  let more = 0;
  const walk = async (relative: string, level: number): Promise<void> => {
    const children = await readdir(path.join(dir, relative), { withFileTypes: true }).catch(() => []);
    children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const child of children) {
      if (child.name.startsWith('.') || EXCLUDED.has(child.name)) continue;
      const childPath = relative ? `${relative}/${child.name}` : child.name;
      if (entries.length >= limit) {
        more++;
        continue;
      }
      entries.push(child.isDirectory() ? `${childPath}/` : childPath);
      if (child.isDirectory() && level < depth) await walk(childPath, level + 1);
    }
  };
  await walk('', 1);
  return { entries, more };
}
