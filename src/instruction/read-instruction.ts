import { classifyCategory } from './classify-category.js';
import { estimateComplexity } from './estimate-complexity.js';
import type { InstructionReading } from './instruction-types.js';
import { judgeVerdict } from './judge-verdict.js';
import { recogniseElements } from './recognise-elements.js';

/** Reads a free-text Slack instruction into the instruction contract. Deterministic, no model, no I/O. */
export function readInstruction(text: string): InstructionReading {
  const recognised = recogniseElements(text);
  const category = classifyCategory(recognised);
  const complexity = estimateComplexity(category, recognised);
  const { verdict, missing } = judgeVerdict(category, recognised);
  return { category, complexity, verdict, missing, elements: recognised.elements };
}
