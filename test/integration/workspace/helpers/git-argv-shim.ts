import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface GitArgvShim {
  /** Puts the shim first on PATH; returns a function restoring the previous PATH. */
  install(): () => void;
  /** Every argv git was started with while installed, one line per invocation. */
  log(): string;
}

/** A `git` wrapper that records its arguments and then runs the real git. */
export function createGitArgvShim(dir: string): GitArgvShim {
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  const binDir = join(dir, 'bin');
  const logFile = join(dir, 'argv.log');
  mkdirSync(binDir, { recursive: true });
  writeFileSync(logFile, '');
  writeFileSync(join(binDir, 'git'), `#!/bin/sh\nprintf '%s\\n' "git $*" >> '${logFile}'\nexec '${realGit}' "$@"\n`);
  chmodSync(join(binDir, 'git'), 0o755);
  return {
    install() {
      const previous = process.env.PATH;
      process.env.PATH = `${binDir}:${previous ?? ''}`;
      return () => {
        process.env.PATH = previous;
      };
    },
    log: () => readFileSync(logFile, 'utf8'),
  };
}
