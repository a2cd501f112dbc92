import { type CodeReferences, findCodeReferences } from './code-references.js';
import type { InstructionElements, ObservedProblem, RecognisedInstruction } from './instruction-types.js';
import { labelledSections, type SectionKind } from './labelled-sections.js';
import { describesSymptom, findInlineError, looksLikeErrorOutput } from './problem-cues.js';
import { findRateLimit } from './rate-limit.js';
import { cleanItem, splitListItems } from './sentences.js';
import { sentenceRole, suspectChanges, type SentenceRole } from './sentence-roles.js';
import { codeBlocksIn, plainInstruction, withoutCodeMarkers } from './slack-markup.js';
import { specificWords } from './target-cues.js';
import { requirementItems, splitTaskList, unlabelledParts, withoutFinalStop } from './unlabelled-text.js';

const BUG_CONTEXT =
  /\b(?:fix|fixes|fixing|bug|bugs|buggy|broken|error|errors|crash\w*|fail(?:s|ed|ing|ure)?|wrong|incorrect\w*|regression|triage|incident|outage|exception|not working|doesn'?t work)\b/i;
const EXPECTATION = /\b(?:should|expected|supposed to|ought to|needs? to be|must be)\b/i;
const IMPERATIVE_START =
  /^(?:please\s+|pls\s+|also\s+|then\s+|and\s+|can you\s+|could you\s+)?(?:add|fix|make|use|write|create|implement|update|remove|return|follow|ensure|cover|raise|increase|bump|mock|handle|keep|log|retry|save|check|look|find|investigate|tell|give|include|put|send|move|rename|split|replace|review|test|run|store|show|print|let|open|document)\b/i;
const REFERENCE_ONLY = /^(?:(?:the\s+)?(?:repo|repository|file|location|see|in|code|pr|link|ref)\b[\s:]*\S*|\S+)$/i;
const NOT_A_TASK: ReadonlySet<SentenceRole> = new Set(['reproduction', 'success-criterion', 'background']);
const TRIAGE_PREFIX = /^(?:triage|incident|urgent|alert|sev[- ]?\d|p[0-2])\s*[:\-–]\s*/i;

export function recogniseElements(text: string): RecognisedInstruction {
  const plain = plainInstruction(text);
  const { sections, unlabelled } = labelledSections(plain.prose);
  const references = findCodeReferences(plain.prose, plain.codeBlocks, plain.urls);
  const prose = withoutCodeMarkers(plain.prose);
  const errorBlocks = plain.codeBlocks.filter(looksLikeErrorOutput);
  const labelledError = sections.error ? resolveCode(sections.error, plain.codeBlocks) : undefined;
  const inlineError = findInlineError(prose);
  const bugContext = BUG_CONTEXT.test(prose) || errorBlocks.length > 0 || !!(sections.observed || sections.expected || sections.actual || sections.error);

  const { listItems, sentences } = unlabelledParts(unlabelled);
  const taskSentence = sections.task
    ? undefined
    : (sentences.find((sentence) => IMPERATIVE_START.test(sentence) || !NOT_A_TASK.has(sentenceRole(sentence))) ?? sentences[0]);
  const taskSource = withoutCodeMarkers(sections.task ?? taskSentence ?? listItems[0] ?? '');
  const { task, items: taskItems } = splitTaskList(taskSource);

  const requirements = splitSection(sections.requirements);
  requirements.push(...splitSection(sections.scope), ...splitSection(sections.errorHandling), ...splitSection(sections.logging));
  const constraints = splitSection(sections.constraints);
  const successCriteria = splitSection(sections.successCriteria);
  for (const item of [...taskItems, ...listItems.filter((item) => item !== taskSource)]) {
    const role = sentenceRole(item);
    if (role === 'success-criterion') successCriteria.push(item);
    else if (role === 'constraint') constraints.push(item);
    else requirements.push(item);
  }
  const reproduction = splitSection(sections.reproduction);
  const suspects = [...(sections.suspects ? suspectChanges(`since ${sections.suspects}`) : []), ...suspectChanges(taskSource)];
  const background = sections.background ? [sections.background] : [];
  let expected = sections.expected;
  let actual = sections.actual;

  if (bugContext && taskSentence && !sections.observed && !actual && describesSymptom(taskSentence) && !IMPERATIVE_START.test(taskSentence)) {
    actual = taskSentence.replace(TRIAGE_PREFIX, '');
  }
  for (const sentence of sentences) {
    if (sentence === taskSentence || /^\W*$/.test(sentence)) continue;
    const role = sentenceRole(sentence);
    if (role === 'reproduction') reproduction.push(cleanItem(sentence));
    else if (role === 'success-criterion') successCriteria.push(cleanItem(sentence));
    else if (role === 'constraint') constraints.push(cleanItem(sentence));
    else if (role === 'background') background.push(sentence);
    else if (role === 'suspect') suspects.push(...suspectChanges(sentence));
    else if (REFERENCE_ONLY.test(sentence.replace(/[.\s]+$/, '')) && sentence.split(/\s+/).length <= 3) continue;
    else if (bugContext && !expected && EXPECTATION.test(sentence) && !IMPERATIVE_START.test(sentence)) expected = cleanItem(sentence);
    else if (bugContext && !actual && !sections.observed && describesSymptom(sentence) && !IMPERATIVE_START.test(sentence)) actual = cleanItem(sentence);
    else requirements.push(...requirementItems(sentence));
  }

  const observedProblem: ObservedProblem = {
    description: sections.observed && withoutFinalStop(withoutCodeMarkers(sections.observed)),
    error: labelledError || (errorBlocks.length > 0 ? errorBlocks.join('\n\n') : inlineError),
    expected: expected && withoutFinalStop(withoutCodeMarkers(expected)),
    actual: actual && withoutFinalStop(withoutCodeMarkers(actual)),
    reproduction: unique(reproduction),
    suspectCommits: unique(suspects),
  };

  const elements: InstructionElements = {
    task: task || undefined,
    background: background.join('\n') || undefined,
    requirements: unique(requirements),
    constraints: unique(constraints),
    successCriteria: unique(successCriteria),
    location: locationItems(sections, references),
    observedProblem,
    references: {
      prNumbers: references.prNumbers,
      commits: references.commits,
      urls: plain.urls,
      repositories: unique([...splitSection(sections.repository).map(stripQuotes), ...references.repositories]),
      functions: references.functions,
    },
    rateLimit: sections.rateLimit ?? findRateLimit(prose),
    severityLabels: sections.severityLabels
      ? (findSeverityLabels(sections.severityLabels) ?? sections.severityLabels.split(/\s*[/,|]\s*/))
      : findSeverityLabels(prose),
    focusAreas: sections.focusAreas ? splitFocusAreas(sections.focusAreas) : findFocusAreas(prose),
  };

  const lower = maskPaths(prose, references);
  return {
    elements: withoutEmptyParts(elements),
    cues: {
      prose,
      lower,
      head: maskPaths(task, references),
      codeBlocks: plain.codeBlocks,
      references,
      sections,
      errorOutput: errorBlocks.length > 0 || !!labelledError || !!inlineError,
      specific: specificWords(lower),
      symptom: describesSymptom(prose),
    },
  };
}

function splitSection(content: string | undefined): string[] {
  return content ? splitListItems(withoutCodeMarkers(content)) : [];
}

function resolveCode(content: string, codeBlocks: string[]): string {
  const code = codeBlocksIn(content, codeBlocks);
  const rest = withoutCodeMarkers(content);
  return [rest, ...code].filter(Boolean).join('\n');
}

function unique(items: string[]): string[] {
  return [...new Set(items.map((item) => item.trim()).filter(Boolean))];
}

/** Drops undefined values, empty strings, empty lists and empty nested objects. */
function withoutEmptyParts<T extends object>(value: T): T {
  const result: Record<string, unknown> = {};
  for (const [key, part] of Object.entries(value)) {
    if (part === undefined || part === '' || (Array.isArray(part) && part.length === 0)) continue;
    if (typeof part === 'object' && !Array.isArray(part)) {
      const nested = withoutEmptyParts(part as object);
      if (Object.keys(nested).length > 0) result[key] = nested;
      continue;
    }
    result[key] = part;
  }
  return result as T;
}

/** "fix src/jobs/cleanup.ts" must not read as a clean-up: paths become a neutral mark. */
function maskPaths(text: string, references: CodeReferences): string {
  let masked = text.toLowerCase();
  const paths = [...references.files, ...references.directories]
    .map((path) => path.replace(/:\d+(?::\d+)?$/, '').toLowerCase())
    .filter((path) => path.length > 2 && !/^line \d+$/.test(path))
    .sort((a, b) => b.length - a.length);
  for (const path of paths) masked = masked.split(path).join(' § ');
  return masked;
}

/** Where the work is: labelled locations and targets first, then paths, directories and functions found anywhere. */
function locationItems(sections: Partial<Record<SectionKind, string>>, references: CodeReferences): string[] {
  const labelled = [sections.location, sections.target]
    .flatMap((content) => (content ? withoutCodeMarkers(content).split(/\s*(?:,|;|\n)\s*/) : []))
    .map((item) => stripQuotes(cleanItem(item)))
    .filter(Boolean);
  const found = [...references.files, ...references.directories, ...references.functions];
  const items: string[] = [];
  for (const item of [...labelled, ...found]) {
    const key = normaliseLocation(item);
    const known = items.some((existing) => {
      const other = normaliseLocation(existing);
      return other === key || (!key.includes('/') && other.endsWith(`/${key}`));
    });
    if (!known) items.push(item);
  }
  return items;
}

function normaliseLocation(item: string): string {
  return item
    .replace(/[`()]/g, '')
    .replace(/:\d+(?::\d+)?$/, '')
    .toLowerCase();
}

function stripQuotes(item: string): string {
  return item
    .replace(/^[`"']+|[`"']+$/g, '')
    .replace(/\(\)$/, '')
    .trim();
}

const SEVERITY = String.raw`(?:critical|blocker|blocking|major|high|medium|moderate|minor|low|info|informational|nit|nitpick|trivial|cosmetic|p[0-4]|sev[- ]?[0-4])`;
const SEPARATOR = String.raw`\s*(?:\/|,|\||>|→|->|\s-\s|\bor\b|\band\b)\s*`;
const SEVERITY_SET = new RegExp(String.raw`\b${SEVERITY}(?:${SEPARATOR}${SEVERITY}\b)+`, 'gi');
const SEPARATOR_PATTERN = new RegExp(SEPARATOR, 'i');
const SEVERITY_CONTEXT = /\b(?:severit|priorit|label|rank|tag|classif|categori)/i;

/** A set of severity labels such as Critical/Major/Minor or Critical, High, Medium, Low. */
function findSeverityLabels(text: string): string[] | undefined {
  for (const match of text.matchAll(SEVERITY_SET)) {
    const labels = match[0]
      .split(SEPARATOR_PATTERN)
      .map((label) => label.trim())
      .filter(Boolean);
    const before = text.slice(Math.max(0, (match.index ?? 0) - 40), match.index);
    if (labels.length >= 3 || SEVERITY_CONTEXT.test(before)) return labels;
  }
  return undefined;
}

const FOCUS_CUE =
  /\b(?:focus(?:ing)?\s+(?:especially\s+|mainly\s+|mostly\s+)?on|look(?:ing)?\s+(?:out\s+)?for|check(?:ing)?\s+(?:for|especially)|pay(?:ing)?\s+(?:special\s+|extra\s+|close\s+)?attention\s+to|especially|esp\.?|in particular|concerned about|worried about|with an eye (?:on|to|for)|care about|mainly|mostly|primarily|flag (?:anything|any|all|everything)(?: that)?)\s+([^.\n?!;]+)/i;

/** Focus areas named without a label: "focus on error handling and SQL injection". */
const NAMED_FOCUS = /\b((?:[\w-]+ )?[\w-]+) focus(?:ed)?\b(?! on)/i;
const REVIEW_FOR = /\b(?:review|audit|check|scan|go over|look over)\b(?:[^.?!\n]|\.(?!\s)){0,60}?\bfor\s+(?!me\b|us\b|you\b|now\b|today\b)([^.,;?!\n]+)/i;

function findFocusAreas(text: string): string[] | undefined {
  const match = FOCUS_CUE.exec(text) ?? REVIEW_FOR.exec(text) ?? NAMED_FOCUS.exec(text);
  return match?.[1] ? splitFocusAreas(match[1]) : undefined;
}

function splitFocusAreas(text: string): string[] {
  return text
    .split(/\s*(?:,|;|\n|\band\b|&|\+)\s*/)
    .map((area) => area.replace(/^[-*•\d.)\s]+|^(?:the|also)\s+|[\s.]+$/gi, '').trim())
    .filter((area) => area.length > 1);
}
