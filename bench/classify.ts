/**
 * Mean time to read one instruction, over the labelled cases under test/ and, when one is named, an evaluation set
 * kept outside the repository. Run with `npx tsx bench/classify.ts [FILE.jsonl...]` or
 * `WRENCH_EVAL_SET=FILE[:FILE] npx tsx bench/classify.ts` (format: bench/eval-set.ts).
 */
import { readInstruction } from '../src/instruction/read-instruction.js';
import { CASES } from '../test/unit/instruction/cases.js';
import { evalSetFiles, loadEvalSet, NO_EVAL_SET_HINT, runBench } from './eval-set.js';

const ROUNDS = 200;

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

runBench('bench/classify.ts', () => {
  const files = evalSetFiles(process.argv.slice(2));
  if (files.length === 0) console.log(`No evaluation set given (${NO_EVAL_SET_HINT}): timing the labelled cases under test/ only.`);
  const sets = files.map(loadEvalSet).map((set) => [set.name, set.instructions.map((instruction) => instruction.text)] as const);
  const cases = CASES.map((c) => c.text);
  const all = [...sets.flatMap(([, texts]) => texts), ...cases];
  measure(all, 50); // warm-up: let the JIT compile the regular expressions

  for (const [name, texts] of [...sets, ['cases', cases] as const, ...(sets.length ? [['all', all] as const] : [])]) {
    const { mean, p99 } = measure(texts, ROUNDS);
    console.log(
      `${name.padEnd(20)} ${String(texts.length).padStart(4)} instructions  mean ${mean.toFixed(1).padStart(6)} µs  p99 ${p99.toFixed(0).padStart(5)} µs`,
    );
  }
});
