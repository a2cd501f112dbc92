/** The lines of a text as an editor counts them: a final newline does not start another line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  return lines;
}

/** Lines prefixed with their 1-based number in the documented format: "1: def is_prime(n):". */
export function numberLines(lines: readonly string[], firstNumber: number): string {
  return lines.map((line, index) => `${firstNumber + index}: ${line}`).join('\n');
}

/** 1-based line number of a character offset. */
export function lineOfOffset(text: string, offset: number): number {
  let line = 1;
  for (let index = text.indexOf('\n'); index !== -1 && index < offset; index = text.indexOf('\n', index + 1)) line++;
  return line;
}
