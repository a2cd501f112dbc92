import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createBwrapSandbox } from './bwrap-sandbox.js';

export interface SandboxCheck {
  ok: boolean;
  problem?: string;
  fix?: string;
}

const INSTALL_FIX =
  'Install bubblewrap: `apt-get install bubblewrap` (Debian/Ubuntu), `dnf install bubblewrap` (Fedora), `apk add bubblewrap` (Alpine); or set sandbox.mode: none (no isolation).';
const USERNS_FIX =
  'Allow unprivileged user namespaces: `sysctl -w kernel.unprivileged_userns_clone=1`; on Ubuntu 23.10+ also `sysctl -w kernel.apparmor_restrict_unprivileged_userns=0` (or an AppArmor profile for bwrap). In Docker, run with `--security-opt seccomp=unconfined --security-opt apparmor=unconfined` or as root with `--cap-add SYS_ADMIN`. Or set sandbox.mode: none (no isolation).';

/** Run a trivial command under bubblewrap with the real sandbox settings and say how to fix what fails. */
export async function checkSandbox(options: { bwrapPath?: string } = {}): Promise<SandboxCheck> {
  const root = await mkdtemp(path.join(tmpdir(), 'wrench-sandbox-check-'));
  try {
    // Only Wrench's own echo runs: it need not wait for the background scan of /usr (nor start one, in `wrench doctor`).
    const sandbox = createBwrapSandbox({ root, bwrapPath: options.bwrapPath, waitForUsrScan: false });
    const result = await sandbox.exec('echo wrench-sandbox-ok', { cwd: root, timeoutMs: 15_000 });
    if (result.exitCode === 0 && result.output.includes('wrench-sandbox-ok')) return { ok: true };
    return diagnose(result.timedOut ? 'bubblewrap did not answer within 15 s' : result.output.trim() || `bwrap exited with ${result.exitCode}`);
  } catch (error) {
    return diagnose((error as Error).message);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

function diagnose(detail: string): SandboxCheck {
  if (/ENOENT|not found/i.test(detail)) return { ok: false, problem: `bubblewrap (bwrap) is not installed: ${detail}`, fix: INSTALL_FIX };
  if (/namespace|uid map|setting up|permission denied|operation not permitted|EPERM/i.test(detail))
    return { ok: false, problem: `bubblewrap cannot create namespaces: ${detail}`, fix: USERNS_FIX };
  return {
    ok: false,
    problem: `bubblewrap failed: ${detail}`,
    fix: `Run \`bwrap --ro-bind / / --unshare-pid --unshare-net true\` by hand to see why. ${USERNS_FIX}`,
  };
}
