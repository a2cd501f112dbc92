import { type Ask, clarifyingEn, type ClarifyingStrings } from './clarifying-strings.js';
import type { InstructionReading } from './instruction-types.js';
import { ASK_PREFIX } from './sentences.js';

export interface ClarifyingQuestion {
  element: string;
  question: string;
  placeholder?: string;
}

type Asker = (reading: InstructionReading, subject: string, t: ClarifyingStrings) => Ask;

const ASKERS: Record<string, Asker> = {
  target: (reading, _subject, t) => t.target[reading.category],
  'observed-problem': (reading, _subject, t) =>
    reading.category === 'testing' ? t.failingTests : reading.category === 'incident-triage' ? t.incidentSymptoms : t.observedProblem,
  location: (reading, _subject, t) => (reading.category === 'testing' ? t.codeToTest : t.location),
  scope: (reading, subject, t) => (reading.verdict === 'unrealistic' ? t.rewriteScope : t.scope(subject)),
  requirements: (_reading, _subject, t) => t.requirements,
  'success-criteria': (reading, _subject, t) =>
    reading.category === 'data-analysis'
      ? t.analysisQuestions
      : reading.category === 'refactoring'
        ? t.refactoringGoal
        : reading.category === 'testing'
          ? t.testsProve
          : t.done,
  'focus-areas': (_reading, _subject, t) => t.focusAreas,
  'output-format': (reading, _subject, t) => (reading.category === 'code-review' ? t.findingsFormat : t.outputFormat),
  'rate-limit': (_reading, _subject, t) => t.rateLimit,
  'error-handling': (_reading, _subject, t) => t.errorHandling,
  logging: (_reading, _subject, t) => t.logging,
};

/**
 * One specific question per missing element, in the order the reading lists them: the model's (in the requester's
 * language) when it asked, else the rules' in `t`'s words.
 */
export function clarifyingQuestions(reading: InstructionReading, t: ClarifyingStrings = clarifyingEn): ClarifyingQuestion[] {
  if (reading.questions?.length) return reading.questions.map(({ element, question }) => ({ element, question }));
  const subject = subjectOf(reading.elements.task ?? '');
  return reading.missing.map((element) => {
    const asker = ASKERS[element];
    const asked = asker ? asker(reading, subject, t) : { question: t.more(element.replace(/-/g, ' ')) };
    return { element, ...asked };
  });
}

/** For an instruction too large to take on: a bounded piece to start with instead. */
export function scopedFirstStep(reading: InstructionReading, text: string): string {
  const plain = text
    .replace(/<[@#!][^>]*>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (reading.verdict === 'unrealistic') {
    const system =
      /\b(back[- ]?end|front[- ]?end|app|application|system|code ?base|platform|monolith|site|website|services|api)\b/i.exec(plain)?.[1] ?? 'system';
    const language = /\b(?:in|to|into|using)\s+([A-Z][\w#+.]*|go|rust|python|java|kotlin|typescript|elixir|scala)\b/i.exec(plain)?.[1];
    const target = language ? ` in ${language}` : '';
    return (
      `A complete rewrite of the ${system} is too large to do or verify in one task. ` +
      `Start with one self-contained piece instead: pick a single endpoint or background job of the ${system}, ` +
      `reimplement it${target} behind the same interface, keep its existing tests passing, ` +
      'and compare behaviour and performance before deciding on the next piece.'
    );
  }
  const subject = subjectOf(reading.elements.task ?? plain);
  if (reading.missing.includes('scope')) {
    return `Start with one bounded piece of ${subject || 'the work'}: a single endpoint, screen or flow, with what is out of scope stated, and tests for it.`;
  }
  return reading.elements.task ?? plain;
}

/** "add payments" → "payments": the object of the request, without the leading verb and politeness. */
function subjectOf(task: string): string {
  return task
    .replace(new RegExp(`^\\W*${ASK_PREFIX}`, 'i'), '')
    .replace(/^(?:add|implement|build|create|introduce|support|make|write|set up|rewrite|fix|review|refactor|analy[sz]e|scrape|test)\s+/i, '')
    .replace(/[.?!]+$/, '')
    .trim();
}
