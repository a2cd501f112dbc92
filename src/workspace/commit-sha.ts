import { WrenchError } from '../errors.js';

export function assertCommitSha(sha: string): void {
  if (!/^[0-9a-f]{4,64}$/i.test(sha)) {
    throw new WrenchError('invalid_commit', `"${sha}" is not a commit id; give the hexadecimal sha of a commit.`);
  }
}
