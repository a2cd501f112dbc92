import { randomBytes } from 'node:crypto';

/**
 * Each command runs in a fresh bash; the working directory is carried over by printing it on exit
 * behind a marker no command prints by chance, then cutting that line out of the output.
 */
export class CwdMarker {
  private readonly marker = `__WRENCH_CWD_${randomBytes(8).toString('hex')}__`;

  /** The command, prefixed (on its first line, so line numbers in errors stay right) with an EXIT trap printing $PWD. */
  wrap(command: string): string {
    return `trap 'printf "\\n%s%s\\n" "${this.marker}" "$PWD"' EXIT; ${command}`;
  }

  /** The output without the marker line, and the directory it reported (if the trap ran). */
  strip(output: string): { output: string; cwd?: string } {
    const at = output.lastIndexOf(`\n${this.marker}`);
    if (at === -1) return { output };
    const start = at + 1 + this.marker.length;
    const end = output.indexOf('\n', start);
    const cwd = output.slice(start, end === -1 ? undefined : end);
    return { output: output.slice(0, at) + (end === -1 ? '' : output.slice(end + 1)), cwd };
  }
}
