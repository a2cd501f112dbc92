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

function describeElements(elements: InstructionElements): string[] {
  const lines: string[] = [];
  const one = (label: string, value: string | undefined) => {
    if (value) lines.push(`  ${`${label}:`.padEnd(18)}${indentContinuation(value)}`);
  };
  const many = (label: string, values: (string | number)[] | undefined) => {
    if (!values || values.length === 0) return;
    if (values.length === 1) one(label, String(values[0]));
    else lines.push(`  ${label}:`, ...values.map((value) => `    - ${indentContinuation(String(value), 6)}`));
  };
  one('Task', elements.task);
  one('Background', elements.background);
  many('Requirements', elements.requirements);
  many('Constraints', elements.constraints);
  many('Success criteria', elements.successCriteria);
  many('Location', elements.location);
  const problem = elements.observedProblem;
  one('Problem', problem?.description);
  one('Error', problem?.error);
  one('Expected', problem?.expected);
  one('Actual', problem?.actual);
  many('Reproduction', problem?.reproduction);
  many('Suspects', problem?.suspectCommits);
  one('Output format', elements.outputFormat);
  many('Examples', elements.examples);
  const references = elements.references;
  many(
    'Pull requests',
    references?.prNumbers?.map((number) => `#${number}`),
  );
  many('Commits', references?.commits);
  many('URLs', references?.urls);
  many('Repositories', references?.repositories);
  many('Functions', references?.functions);
  one('Rate limit', elements.rateLimit);
  one('Severity labels', elements.severityLabels?.join(' / '));
  many('Focus areas', elements.focusAreas);
  return lines;
}

function indentContinuation(value: string, width = 20): string {
  return value.replace(/\n/g, `\n${' '.repeat(width)}`);
}
