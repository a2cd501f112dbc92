import type { RunEntry } from './run-log-types.js';

const LINE_CHARS = 200;

/**
 * Wrench's record of an interrupted attempt's steps, small enough for the next attempt's first message: the phases it
 * went through, the commands it ran (with a failing exit code), the files it edited and what the checks said. The
 * model's own words are left out. Undefined when the record holds no step.
 */
export function attemptDigest(entries: readonly RunEntry[], maxChars = 1500): string | undefined {
  const lines: string[] = [];
  for (const entry of entries) {
    const line = stepLine(entry);
    if (line && line !== lines.at(-1)) lines.push(line);
  }
  if (lines.length === 0) return undefined;
  const kept: string[] = [];
  let size = 0;
  for (const line of lines.toReversed()) {
    if (size + line.length + 1 > maxChars) break;
    kept.unshift(line);
    size += line.length + 1;
  }
  const left = lines.length - kept.length;
  return [...(left > 0 ? [`- (${left} earlier steps left out)`] : []), ...kept].join('\n');
}

function stepLine(entry: RunEntry): string | undefined {
  switch (entry.kind) {
    case 'phase':
      return entry.detail ? `- ${entry.phase}: ${oneLine(entry.detail)}` : undefined;
    case 'edit':
      return `- edited ${oneLine(entry.path)}`;
    case 'tool': {
      const failed = entry.isError ? ' (failed)' : typeof entry.exitCode === 'number' && entry.exitCode !== 0 ? ` (exit ${entry.exitCode})` : '';
      return `- ${oneLine(entry.title)}${failed}`;
    }
    case 'verification':
      return `- checks after the change: ${entry.passed ? 'nothing that passed before fails' : 'some that passed before now fail'}`;
    default:
      return undefined;
  }
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > LINE_CHARS ? `${flat.slice(0, LINE_CHARS - 1)}…` : flat;
}
