import { stat } from 'node:fs/promises';
import { WrenchError } from '../errors.js';
import { resolveWorkspacePath } from './workspace-path.js';

/** The real path of a command's working directory; rejects one outside the workspace or missing. */
export async function resolveCwd(root: string, cwd: string): Promise<string> {
  const resolved = await resolveWorkspacePath(root, cwd);
  if (!resolved.ok) throw new WrenchError('sandbox_cwd_outside', `The working directory ${resolved.reason}.`);
  const info = await stat(resolved.path).catch(() => undefined);
  if (!info?.isDirectory()) throw new WrenchError('sandbox_cwd_missing', `The working directory ${cwd} does not exist in the workspace.`);
  return resolved.path;
}
