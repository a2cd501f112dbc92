/**
 * Arguments for `bash` that run `command` in a fresh `bash -c` with stderr merged into stdout, so
 * the two arrive in the order they were written. `prelude` runs first in the outer shell.
 */
export function mergedShellArgs(command: string, prelude = ''): string[] {
  return ['-c', `${prelude}exec bash -c "$0" 2>&1`, command];
}
