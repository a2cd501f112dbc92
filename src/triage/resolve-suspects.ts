import { runGit } from '../workspace/run-git.js';
import type { Suspect } from './triage-record.js';
import type { TriageReport } from './triage-report.js';

/**
 * The agent's suspect shas, checked against the clone: resolved to full shas of commits on the base
 * branch (HEAD of the triage checkout), with their subjects. Ones that are not are kept, unresolved,
 * so they are shown but never offered for revert.
 */
export async function resolveSuspects(dir: string, suspects: TriageReport['suspectCommits']): Promise<Suspect[]> {
  const out: Suspect[] = [];
  for (const suspect of suspects) {
    const git = (args: string[]) => runGit(args, { cwd: dir, timeoutMs: 30_000 }).then((o) => o.trim());
    let full: string | undefined;
    try {
      full = await git(['rev-parse', '--verify', '--quiet', `${suspect.sha.toLowerCase()}^{commit}`]);
      await git(['merge-base', '--is-ancestor', full, 'HEAD']);
    } catch {
      full = undefined;
    }
    if (full && /^[0-9a-f]{40}$/.test(full)) {
      const subject = await git(['log', '-1', '--format=%s', full]).catch(() => undefined);
      out.push({ sha: full, resolved: true, subject, reason: suspect.reason, confidence: suspect.confidence });
    } else {
      out.push({ sha: suspect.sha, resolved: false, reason: suspect.reason, confidence: suspect.confidence });
    }
  }
  return out;
}
