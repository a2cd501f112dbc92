/**
 * Mean time to read one instruction, over the shared samples and the hand-labelled cases.
 * Run with `npx tsx bench/classify.ts`.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readInstruction } from '../src/instruction/read-instruction.js';
import { CASES } from '../test/unit/instruction/cases.js';

const SAMPLES_FILE = fileURLToPath(new URL('../../shared/samples/instructions.jsonl', import.meta.url));
const ROUNDS = 200;

function loadSamples(): string[] {
  try {
    return readFileSync(SAMPLES_FILE, 'utf8')
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => (JSON.parse(line) as { text: string }).text);
  } catch {
    return [];
  }
}

/** Mean over whole rounds (no timer inside the loop), then the 99th percentile of single readings. */
function measure(texts: string[], rounds: number): { mean: number; p99: number } {
  const started = process.hrtime.bigint();
  for (let round = 0; round < rounds; round += 1) for (const text of texts) readInstruction(text);
  const mean = Number(process.hrtime.bigint() - started) / 1000 / (rounds * texts.length);
  const singles: number[] = [];
  for (let round = 0; round < 10; round += 1) {
    for (const text of texts) {
      const one = process.hrtime.bigint();
      readInstruction(text);
      singles.push(Number(process.hrtime.bigint() - one) / 1000);
    }
  }
  singles.sort((a, b) => a - b);
  return { mean, p99: singles[Math.floor(singles.length * 0.99)] ?? 0 };
}

const samples = loadSamples();
const cases = CASES.map((c) => c.text);
const all = [...samples, ...cases];
measure(all, 50); // warm-up: let the JIT compile the regular expressions

for (const [name, texts] of [
  ['samples', samples],
  ['cases', cases],
  ['all', all],
] as const) {
  if (texts.length === 0) continue;
  const { mean, p99 } = measure(texts, ROUNDS);
  console.log(
    `${name.padEnd(8)} ${String(texts.length).padStart(4)} instructions  mean ${mean.toFixed(1).padStart(6)} µs  p99 ${p99.toFixed(0).padStart(5)} µs`,
  );
}
