import { clarifyingQuestions, scopedFirstStep } from './clarifying-questions.js';
import { COMPLEXITY_MINUTES, type InstructionElements, type InstructionReading } from './instruction-types.js';

/** A readable account of a reading, for the terminal: what Wrench understood and what it would do next. */
export function describeReading(reading: InstructionReading, text: string): string {
  const lines = [
    `Category:    ${reading.category}`,
    `Complexity:  ${reading.complexity} (${COMPLEXITY_MINUTES[reading.complexity].label})`,
    `Verdict:     ${reading.verdict}`,
    `Missing:     ${reading.missing.length > 0 ? reading.missing.join(', ') : 'nothing'}`,
  ];
  if (reading.language === 'unreadable')
    lines.push('Language:    not one the rules can read: the model reader (or the agent) judges it; the rules let it through');
  const recognised = describeElements(reading.elements);
  lines.push('', recognised.length > 0 ? 'Recognised:' : 'Recognised: nothing beyond the text itself', ...recognised);
  if (reading.verdict === 'ill-formed') {
    lines.push('', 'Before starting, Wrench would ask:');
    clarifyingQuestions(reading).forEach(({ question, placeholder }, index) => {
      lines.push(`  ${index + 1}. ${question}${placeholder ? `\n     e.g. ${placeholder.replace(/\n/g, ' ')}` : ''}`);
    });
  } else if (reading.verdict === 'unrealistic') {
    lines.push('', 'Wrench would decline and suggest a scoped first step:', `  ${scopedFirstStep(reading, text)}`);
  }
  return lines.join('\n');
}

/** Labels that the element's own name does not give ("successCriteria" gives "Success criteria"). */
const LABELS: Record<string, string> = { description: 'Problem', suspectCommits: 'Suspects', prNumbers: 'Pull requests', urls: 'URLs' };

function describeElements({ observedProblem, references, ...rest }: InstructionElements): string[] {
  const parts = {
    ...rest,
    severityLabels: rest.severityLabels?.join(' / '),
    ...observedProblem,
    ...references,
    prNumbers: references?.prNumbers?.map((number) => `#${number}`),
  };
  return Object.entries(parts).flatMap(([key, value]) => {
    const label = LABELS[key] ?? `${key[0]?.toUpperCase()}${key.slice(1).replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`)}`;
    const values = (Array.isArray(value) ? value : [value]).filter((item) => item !== undefined && item !== '').map(String);
    if (values.length === 0) return [];
    if (values.length === 1) return [`  ${`${label}:`.padEnd(18)}${indentContinuation(values[0] ?? '')}`];
    return [`  ${label}:`, ...values.map((item) => `    - ${indentContinuation(item, 6)}`)];
  });
}

function indentContinuation(value: string, width = 20): string {
  return value.replace(/\n/g, `\n${' '.repeat(width)}`);
}
