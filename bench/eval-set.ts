/**
 * Evaluation sets for the instruction-reading benches: JSON Lines files kept outside the repository, one labelled
 * instruction per line ({"text", "category", "also"?, "verdict", "complexity"}). They are named on the command line
 * or in WRENCH_EVAL_SET (several joined with ":"); nothing is read from a default place.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface LabelledInstruction {
  id?: string;
  text: string;
  category: string;
  also?: string[];
  verdict: string;
  complexity: string;
}

export interface EvalSet {
  /** The file's name without .jsonl: the column or row label. */
  name: string;
  file: string;
  instructions: LabelledInstruction[];
}

/** The bench cannot run as asked: one line for the person who ran it. */
export class EvalSetError extends Error {
  override name = 'EvalSetError';
}

export const NO_EVAL_SET_HINT = 'pass JSONL files as arguments or set WRENCH_EVAL_SET=FILE[:FILE]';

/** The files named as arguments, else those in WRENCH_EVAL_SET; empty when neither names any. */
export function evalSetFiles(args: readonly string[], env: NodeJS.ProcessEnv = process.env): string[] {
  const named = args.length > 0 ? args : (env.WRENCH_EVAL_SET ?? '').split(path.delimiter);
  return named.map((file) => file.trim()).filter(Boolean);
}

/** Reads one set; a missing file or a line that is not a labelled instruction is an EvalSetError naming it. */
export function loadEvalSet(file: string): EvalSet {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new EvalSetError(`cannot read the evaluation set ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const instructions = text.split('\n').flatMap((line, index) => {
    if (!line.trim()) return [];
    let parsed: Partial<LabelledInstruction>;
    try {
      parsed = JSON.parse(line);
    } catch {
      throw new EvalSetError(`${file}:${index + 1} is not JSON`);
    }
    const missing = (['text', 'category', 'verdict', 'complexity'] as const).filter((key) => typeof parsed[key] !== 'string');
    if (missing.length) throw new EvalSetError(`${file}:${index + 1} lacks ${missing.join(', ')}`);
    return [parsed as LabelledInstruction];
  });
  if (instructions.length === 0) throw new EvalSetError(`the evaluation set ${file} holds no instructions`);
  return { name: path.basename(file).replace(/\.jsonl$/, ''), file, instructions };
}

/** Runs a bench's main part, turning an EvalSetError into one line on stderr and exit code 2. */
export function runBench(bench: string, main: () => void): void {
  try {
    main();
  } catch (error) {
    if (!(error instanceof EvalSetError)) throw error;
    process.stderr.write(`${bench}: ${error.message}\n`);
    process.exitCode = 2;
  }
}
