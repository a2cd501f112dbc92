import { MISSING_ELEMENTS } from './instruction-types.js';

/** The label each answer is written under; the reader recognises every one of them. */
const LABEL_BY_ELEMENT: Record<string, string> = {
  target: 'Target',
  'observed-problem': 'Observed problem',
  location: 'Location',
  scope: 'Scope',
  requirements: 'Requirements',
  'success-criteria': 'Success criteria',
  'focus-areas': 'Focus',
  'output-format': 'Output format',
  'rate-limit': 'Rate limit',
  'error-handling': 'Error handling',
  logging: 'Logging',
  task: 'Task',
  background: 'Background',
  constraints: 'Constraints',
  examples: 'Examples',
  expected: 'Expected',
  actual: 'Actual',
  reproduction: 'Steps to reproduce',
};
const ORDER = [...MISSING_ELEMENTS, 'task', 'background', 'constraints', 'examples', 'expected', 'actual', 'reproduction'] as string[];

/**
 * Adds clarification answers (keyed by missing element, e.g. `location` or `missing:location`) to the original
 * instruction as labelled sections, so that reading the result sees the gaps filled.
 */
export function combineInstruction(original: string, answers: Record<string, string>): string {
  const sections = Object.entries(answers)
    .map(([key, answer]) => [key.replace(/^missing:/, ''), tidyAnswer(answer)] as const)
    .filter(([, answer]) => answer !== '')
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([element, answer]) => {
      const label = LABEL_BY_ELEMENT[element] ?? 'Details';
      return answer.includes('\n') ? `${label}:\n${answer}` : `${label}: ${answer}`;
    });
  const base = original.trimEnd();
  if (sections.length === 0) return base;
  return `${base}\n\n${sections.join('\n\n')}`;
}

function tidyAnswer(answer: string | undefined): string {
  return (answer ?? '')
    .replace(/\r\n?/g, '\n')
    .replace(/\n\s*\n/g, '\n')
    .trim();
}

function rank(element: string): number {
  const index = ORDER.indexOf(element);
  return index === -1 ? ORDER.length : index;
}
