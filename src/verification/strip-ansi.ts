const ESCAPES = [
  /\u001b\[[0-?]*[ -/]*[@-~]/g, // CSI: colours, cursor moves, erase
  /\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g, // OSC: titles, hyperlinks
  /\u001b[()*+][0-9A-Za-z]/g, // character set selection
  /\u001b[@-Z\\-_]/g, // other two-character escapes
  /\u009b[0-?]*[ -/]*[@-~]/g, // 8-bit CSI
];

/**
 * Output as a person would read it on a terminal: colour and cursor codes removed, CRLF made LF,
 * and of each carriage-return-rewritten line only its last state kept.
 */
export function stripAnsi(text: string): string {
  let plain = text;
  for (const pattern of ESCAPES) plain = plain.replace(pattern, '');
  return plain
    .replace(/\r+\n/g, '\n')
    .split('\n')
    .map((line) => (line.includes('\r') ? lastRewrite(line) : line))
    .join('\n');
}

function lastRewrite(line: string): string {
  return line.split('\r').findLast((part) => part.trim()) ?? '';
}
