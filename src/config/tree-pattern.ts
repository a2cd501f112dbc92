import { z } from 'zod';

/** Whether `pattern` (a file or glob of `dependencyKeyFiles`) stays inside the tree: relative, no `..`. */
export function isTreePattern(pattern: string): boolean {
  return pattern.length > 0 && !pattern.startsWith('/') && !pattern.includes('\\') && !pattern.split('/').includes('..');
}

/** A path or glob inside the repository, as the configuration and `.wrench/checks.yml` take them. */
export const treePattern = z.string().trim().refine(isTreePattern, { message: 'must be a path or glob inside the repository (relative, no ..)' });
