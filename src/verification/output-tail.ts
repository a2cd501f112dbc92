import { stripAnsi } from './strip-ansi.js';

export const OUTPUT_TAIL_CHARS = 3000;

/** The end of a command's output as a person reads it: no colour codes, starting at a line boundary. */
export function outputTail(output: string, maxChars = OUTPUT_TAIL_CHARS): string {
  const plain = stripAnsi(output).trimEnd();
  if (plain.length <= maxChars) return plain;
  const tail = plain.slice(-maxChars);
  const firstBreak = tail.indexOf('\n');
  return firstBreak >= 0 && firstBreak < maxChars / 4 ? tail.slice(firstBreak + 1) : tail;
}
