import { describeReading } from '../instruction/describe-reading.js';
import { readInstruction } from '../instruction/read-instruction.js';

export interface ClassifyIo {
  stdin: NodeJS.ReadableStream;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

const USAGE = `Usage: wrench classify [--json] [TEXT|-]

Prints how Wrench reads an instruction: category, complexity, verdict, missing elements and the recognised parts.
TEXT is the instruction (all remaining arguments, joined by spaces); "-" or no TEXT reads it from stdin.

Options:
  --json      print one JSON object with category, complexity, verdict, missing and elements
  -h, --help  show this message`;

/** `wrench classify [--json] [TEXT|-]`; returns the exit code (2 for usage errors). */
export async function classifyCommand(args: string[], io: ClassifyIo): Promise<number> {
  let json = false;
  const words: string[] = [];
  let flagsEnded = false;
  for (const arg of args) {
    if (!flagsEnded && arg === '--') flagsEnded = true;
    else if (!flagsEnded && arg === '--json') json = true;
    else if (!flagsEnded && (arg === '--help' || arg === '-h')) {
      io.stdout(USAGE);
      return 0;
    } else if (!flagsEnded && arg.startsWith('-') && arg !== '-') {
      io.stderr(`wrench classify: unknown option "${arg}".\n\n${USAGE}\n`);
      return 2;
    } else words.push(arg);
  }

  const fromStdin = words.length === 0 || (words.length === 1 && words[0] === '-');
  if (fromStdin && words.length === 0 && (io.stdin as { isTTY?: boolean }).isTTY) {
    io.stderr(`wrench classify: no instruction given. Pass it as TEXT, or pipe it in with "-".\n\n${USAGE}\n`);
    return 2;
  }
  const text = fromStdin ? await readAll(io.stdin) : words.join(' ');
  if (text.trim() === '') {
    io.stderr('wrench classify: the instruction is empty. Pass the text to read, e.g. wrench classify "add tests for src/x.ts".\n');
    return 2;
  }

  const reading = readInstruction(text);
  if (json) {
    const { category, complexity, verdict, missing, elements } = reading;
    io.stdout(`${JSON.stringify({ category, complexity, verdict, missing, elements }, null, 2)}\n`);
  } else {
    io.stdout(`${describeReading(reading, text)}\n`);
  }
  return 0;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}
