/**
 * How well the deterministic reader (the rules alone) reads instructions people wrote, on evaluation sets kept
 * outside the repository, side by side (one column per set). Run with
 * `npm run bench:reading -- FILE.jsonl [FILE.jsonl...]` or `WRENCH_EVAL_SET=FILE[:FILE] npm run bench:reading`;
 * the format is in bench/eval-set.ts. Without a set it says so in one line and exits 2.
 */
import { readInstruction } from '../src/instruction/read-instruction.js';
import { EvalSetError, evalSetFiles, type LabelledInstruction, loadEvalSet, NO_EVAL_SET_HINT, runBench } from './eval-set.js';

/** The handler strips the bot's mention before reading; so does the bench. */
const withoutMention = (text: string) => text.replace(/^\s*<@[A-Z0-9]+(?:\|[^>]*)?>\s*/, '');

interface Figures {
  samples: number;
  clearHeldBack: string;
  vagueGuessed: string;
  category: string;
  categoryOrAlternative: string;
  verdict: string;
  complexity: string;
  rewritesCaught: string;
  unreadable: string;
}

const share = (hits: number, of: number) => (of === 0 ? 'n/a' : `${hits}/${of} (${Math.round((100 * hits) / of)}%)`);

function measure(samples: LabelledInstruction[]): Figures {
  let clear = 0,
    clearHeld = 0,
    vague = 0,
    vagueGuessed = 0,
    category = 0,
    categoryAlt = 0,
    verdict = 0,
    complexity = 0;
  let rewrites = 0,
    rewritesCaught = 0,
    unreadable = 0,
    unreadableCategory = 0;
  for (const sample of samples) {
    const reading = readInstruction(withoutMention(sample.text));
    if (sample.verdict === 'well-formed') {
      clear++;
      if (reading.verdict !== 'well-formed') clearHeld++;
    } else if (sample.verdict === 'ill-formed') {
      vague++;
      if (reading.verdict === 'well-formed') vagueGuessed++;
    } else {
      rewrites++;
      if (reading.verdict === 'unrealistic') rewritesCaught++;
    }
    if (reading.category === sample.category) category++;
    if (reading.category === sample.category || (sample.also ?? []).includes(reading.category)) categoryAlt++;
    if (reading.verdict === sample.verdict) verdict++;
    if (reading.complexity === sample.complexity) complexity++;
    if (reading.language === 'unreadable') {
      unreadable++;
      if (reading.category === sample.category || (sample.also ?? []).includes(reading.category)) unreadableCategory++;
    }
  }
  return {
    samples: samples.length,
    clearHeldBack: share(clearHeld, clear),
    vagueGuessed: share(vagueGuessed, vague),
    category: share(category, samples.length),
    categoryOrAlternative: share(categoryAlt, samples.length),
    verdict: share(verdict, samples.length),
    complexity: share(complexity, samples.length),
    rewritesCaught: share(rewritesCaught, rewrites),
    unreadable: unreadable === 0 ? '0' : `${unreadable}, category ${unreadableCategory}/${unreadable}`,
  };
}

const rows: [string, keyof Figures, string][] = [
  ['instructions', 'samples', ''],
  ['clear tasks held back with questions', 'clearHeldBack', 'goal on real: <= 5%'],
  ['vague tasks guessed at (taken as well-formed)', 'vagueGuessed', 'goal on real: <= 40%'],
  ['category right (primary)', 'category', ''],
  ['category right (primary or an acceptable second)', 'categoryOrAlternative', 'goal on real: >= 90%'],
  ['verdict right', 'verdict', ''],
  ['complexity right', 'complexity', ''],
  ['whole-rewrite requests caught', 'rewritesCaught', 'goal: all'],
  ['in a language the rules cannot read (let through)', 'unreadable', 'verdict left to the model reader'],
];

runBench('bench/read-instructions.ts', () => {
  const files = evalSetFiles(process.argv.slice(2));
  if (files.length === 0) throw new EvalSetError(`no evaluation set given: ${NO_EVAL_SET_HINT}`);
  const sets = files.map(loadEvalSet);
  const results = sets.map((set) => measure(set.instructions));
  console.log(`${'rules alone'.padEnd(52)}${sets.map((set) => set.name.padEnd(16)).join('')}`);
  for (const [label, key, goal] of rows) console.log(`${label.padEnd(52)}${results.map((figures) => String(figures[key]).padEnd(16)).join('')}${goal}`);
});
