import type { CommandKey } from './verification-types.js';

/** One command an ecosystem detector proposes, with the reason shown in `sources`. */
export interface Detection {
  key: CommandKey;
  command: string;
  reason: string;
}

export function detection(key: CommandKey, command: string, reason: string): Detection {
  return { key, command, reason };
}
