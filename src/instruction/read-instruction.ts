import { classifyCategory } from './classify-category.js';
import { estimateComplexity } from './estimate-complexity.js';
import type { InstructionReading } from './instruction-types.js';
import { judgeVerdict } from './judge-verdict.js';
import { foreignCategoryHint, unreadableLanguage } from './language-cues.js';
import { recogniseElements } from './recognise-elements.js';
import { isWholeRewrite } from './whole-rewrite.js';

/** Reads a free-text Slack instruction into the instruction contract. Deterministic, no model, no I/O. */
export function readInstruction(text: string): InstructionReading {
  const recognised = recogniseElements(text);
  const category = classifyCategory(recognised);
  const complexity = estimateComplexity(category, recognised);
  // Sure in every language the reader supports: a whole rewrite is declined, whoever reads it.
  if (isWholeRewrite(recognised.cues.prose)) {
    return { category, complexity: 'complex', verdict: 'unrealistic', missing: ['scope'], elements: recognised.elements, hold: 'whole-rewrite' };
  }
  // Not read in a language the rules know: let the work through; the model reader (or the agent) judges it.
  if (unreadableLanguage(recognised.cues.prose)) {
    const hinted = foreignCategoryHint(recognised.cues.prose) ?? category;
    return {
      category: hinted,
      complexity: estimateComplexity(hinted, recognised),
      verdict: 'well-formed',
      missing: [],
      elements: recognised.elements,
      language: 'unreadable',
    };
  }
  const { verdict, missing, hold } = judgeVerdict(category, recognised);
  return { category, complexity, verdict, missing, elements: recognised.elements, ...(hold ? { hold } : {}) };
}
