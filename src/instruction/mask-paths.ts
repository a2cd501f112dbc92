import type { CodeReferences } from './code-references.js';

/** "fix src/jobs/cleanup.ts" must not read as a clean-up: paths become a neutral mark. */
export function maskPaths(text: string, references: CodeReferences): string {
  let masked = text.toLowerCase();
  const paths = [...references.files, ...references.directories]
    .map((path) => path.replace(/:\d+(?::\d+)?$/, '').toLowerCase())
    .filter((path) => path.length > 2 && !/^line \d+$/.test(path))
    .sort((a, b) => b.length - a.length);
  for (const path of paths) masked = masked.split(path).join(' § ');
  return masked;
}
