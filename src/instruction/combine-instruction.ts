import { MISSING_ELEMENTS } from './instruction-types.js';

/** The elements an answer may fill, in the order they are written; each one's label ("Observed problem") the reader knows. */
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
      const label = ORDER.includes(element) ? `${element[0]?.toUpperCase()}${element.slice(1).replace(/-/g, ' ')}` : 'Details';
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
