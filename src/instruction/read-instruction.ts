import { classifyCategory } from './classify-category.js';
import { estimateComplexity } from './estimate-complexity.js';
import type { InstructionReading } from './instruction-types.js';
import { judgeVerdict } from './judge-verdict.js';
import { foreignCategoryHint, unfilledForeignTemplate, unreadableLanguage, writtenLanguage } from './language-cues.js';
import { recogniseElements } from './recognise-elements.js';
import { isWholeRewrite } from './whole-rewrite.js';

/** Reads a free-text Slack instruction into the instruction contract. Deterministic, no model, no I/O. */
export function readInstruction(text: string): InstructionReading {
  const recognised = recogniseElements(text);
  const category = classifyCategory(recognised);
  const complexity = estimateComplexity(category, recognised);
  const prose = recognised.cues.prose;
  // Text the rules cannot read still says which language to answer in, when it says so clearly.
  const writtenIn = unreadableLanguage(prose) ? writtenLanguage(prose) : undefined;
  // Sure in every language the reader supports: a whole rewrite is declined, whoever reads it.
  if (isWholeRewrite(prose)) {
    return {
      category,
      complexity: 'complex',
      verdict: 'unrealistic',
      missing: ['scope'],
      elements: recognised.elements,
      hold: 'whole-rewrite',
      ...(writtenIn ? { writtenIn } : {}),
    };
  }
  // Not read in a language the rules know: let the work through; the model reader (or the agent) judges it.
  if (unreadableLanguage(prose)) {
    const hinted = foreignCategoryHint(recognised.cues.prose) ?? category;
    // Its own words say it is unfinished: "复现步骤（请补充具体操作）".
    const unfinished = unfilledForeignTemplate(recognised.cues.prose);
    return {
      category: hinted,
      complexity: estimateComplexity(hinted, recognised),
      verdict: unfinished ? 'ill-formed' : 'well-formed',
      missing: unfinished ? [hinted === 'bug-fixing' || hinted === 'incident-triage' ? 'observed-problem' : 'requirements'] : [],
      elements: recognised.elements,
      language: 'unreadable',
      ...(writtenIn ? { writtenIn } : {}),
    };
  }
  const { verdict, missing, hold } = judgeVerdict(category, recognised);
  return { category, complexity, verdict, missing, elements: recognised.elements, ...(hold ? { hold } : {}) };
}
