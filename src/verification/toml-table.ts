import { parse } from 'smol-toml';

/** The table at a dotted path (`tool.ruff`, `project.optional-dependencies`) of a TOML document; undefined when absent or unparsable. */
export function tomlTable(text: string, path: string): Record<string, unknown> | undefined {
  let node: unknown;
  try {
    node = parse(text);
  } catch {
    return undefined;
  }
  for (const key of path.split('.')) {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return typeof node === 'object' && node !== null && !Array.isArray(node) ? (node as Record<string, unknown>) : undefined;
}
