import { hasListMarker, splitSentences } from './sentences.js';

export interface LabelledSections {
  /** Content per kind; a label used twice has its contents joined by a newline. */
  sections: Partial<Record<SectionKind, string>>;
  /** Everything outside labelled sections, in order. */
  unlabelled: string;
}

/** Each kind of section and the labels people write it under. */
const LABELS = [
  ['task', 'task|goal|objective|ask|request|todo|what'],
  ['background', 'background|context|for context|why|motivation|notes?|fyi'],
  ['requirements', 'requirements?|reqs|must[- ]haves?|specs?|details|acceptance'],
  ['constraints', "constraints?|restrictions?|limitations|rules|don'?ts|do not|non[- ]goals|out of scope|guardrails"],
  ['successCriteria', 'success criteria|success|acceptance criteria|done when|definition of done|dod|done means'],
  ['location', 'location|locations|where|files?|paths?|code|modules?|functions?|components?|service'],
  ['repository', 'repo|repository|repos'],
  ['target', 'target|data|dataset|data source|source|sources|input|inputs|site|sites|urls?|pages'],
  ['scope', 'scope|in scope'],
  ['observed', 'observed problem|problem|issue|symptoms?|bug|what happens|observed'],
  ['expected', 'expected|expected behaviou?r|expected result|expected output|should'],
  ['actual', 'actual|actual behaviou?r|actual result|actual output|current behaviou?r|currently|observed behaviou?r|instead'],
  ['reproduction', 'steps to reproduce|repro steps|repro|reproduction|to reproduce|how to reproduce|steps'],
  ['error', 'error|error message|errors|stack ?trace|traceback|logs?|exception'],
  ['suspects', 'suspects?|suspect commits|suspected commits|suspected cause|started after|regressed in|likely cause'],
  ['outputFormat', 'output format|output|format|deliverables?|report format'],
  ['examples', 'examples?|e\\.g\\.|samples?|test cases|cases'],
  ['focusAreas', 'focus|focus areas?|focus on|look for|areas'],
  ['severityLabels', 'severity|severity labels|severity levels|severities'],
  ['rateLimit', 'rate limits?|rate[- ]limit|rate limiting|throttle|throttling|politeness'],
  ['errorHandling', 'error handling|retries|retry policy|failures'],
  ['logging', 'logging'],
  ['references', 'references?|links|see also|related'],
] as const;

export type SectionKind = (typeof LABELS)[number][0];

const SINGLE_VALUE: ReadonlySet<SectionKind> = new Set([
  'task',
  'background',
  'target',
  'observed',
  'expected',
  'actual',
  'error',
  'outputFormat',
  'rateLimit',
  'errorHandling',
  'logging',
  'repository',
]);

const KIND_PATTERNS: [SectionKind, RegExp][] = LABELS.map(([kind, alternatives]) => [kind, new RegExp(`^(?:${alternatives})$`, 'i')]);

const ALL_LABELS = LABELS.map(([, alternatives]) => alternatives)
  .join('|')
  .split('|')
  .sort((a, b) => b.length - a.length)
  .join('|');

/** A label at a line start or right after a sentence, followed by a colon (not `://`). */
const LABEL = new RegExp(
  String.raw`(?:^|(?<=[.!?)"]\s+)|(?<=\s[—–]\s+)|(?<=\n))[ \t]*(?:[-*•]\s*|\d{1,2}[.)]\s*)?(${ALL_LABELS})\s*(?:\([^)\n]{0,40}\))?\s*:(?!/)`,
  'gim',
);

interface FoundLabel {
  kind: SectionKind;
  start: number;
  contentStart: number;
  atLineStart: boolean;
}

export function labelledSections(prose: string): LabelledSections {
  const found = findLabels(prose);
  const sections: Partial<Record<SectionKind, string>> = {};
  const unlabelled: string[] = [];
  let cursor = 0;
  found.forEach((label, index) => {
    const regionEnd = found[index + 1]?.start ?? prose.length;
    if (label.start < cursor) return;
    unlabelled.push(prose.slice(cursor, label.start));
    const contentEnd = sectionEnd(prose, label, regionEnd);
    const content = prose.slice(label.contentStart, contentEnd).trim();
    if (content) sections[label.kind] = sections[label.kind] ? `${sections[label.kind]}\n${content}` : content;
    cursor = contentEnd;
  });
  unlabelled.push(prose.slice(cursor));
  return {
    sections,
    unlabelled: unlabelled
      .map((part) => part.trim())
      .filter(Boolean)
      .join('\n'),
  };
}

function findLabels(prose: string): FoundLabel[] {
  const found: FoundLabel[] = [];
  for (const match of prose.matchAll(LABEL)) {
    const labelText = (match[1] ?? '').toLowerCase().replace(/\s+/g, ' ');
    const kind = KIND_PATTERNS.find(([, pattern]) => pattern.test(labelText))?.[0];
    if (!kind) continue;
    const start = match.index ?? 0;
    const lineStart = prose.lastIndexOf('\n', start - 1) + 1;
    found.push({
      kind,
      start,
      contentStart: start + match[0].length,
      atLineStart: prose.slice(lineStart, start).trim() === '',
    });
  }
  return found;
}

/**
 * Where a section's content stops: a label alone on its line takes the block below it; a label inside a line
 * takes one sentence; a label at a line start takes the line, and list labels also the list lines below.
 */
function sectionEnd(prose: string, label: FoundLabel, regionEnd: number): number {
  const lineEnd = indexOrEnd(prose, '\n', label.contentStart, regionEnd);
  const sameLine = prose.slice(label.contentStart, lineEnd);
  if (sameLine.trim() === '') return followingBlock(prose, lineEnd, regionEnd);
  if (!label.atLineStart) {
    // "Expected: x. Actual: y. Started after PR #1." keeps only "y" for a label inside a line.
    const first = splitSentences(sameLine)[0] ?? sameLine;
    return label.contentStart + sameLine.indexOf(first) + first.length;
  }
  return SINGLE_VALUE.has(label.kind) ? lineEnd : followingListLines(prose, lineEnd, regionEnd);
}

/** Lines after a label that stands alone on its line, up to a blank line. */
function followingBlock(prose: string, from: number, regionEnd: number): number {
  return from >= regionEnd ? regionEnd : indexOrEnd(prose, '\n\n', from + 1, regionEnd);
}

/** Following lines that carry a list marker, so "Requirements: a\n- b\n- c" keeps b and c. */
function followingListLines(prose: string, from: number, regionEnd: number): number {
  let end = from;
  while (end < regionEnd) {
    const next = indexOrEnd(prose, '\n', end + 1, regionEnd);
    const line = prose.slice(end + 1, next);
    if (!hasListMarker(line)) break;
    end = next;
  }
  return end;
}

/** The first `search` in text[from, end), or end: bounded, so many labels on one long line stay linear. */
function indexOrEnd(text: string, search: string, from: number, end: number): number {
  const index = text.slice(from, end).indexOf(search);
  return index === -1 ? end : from + index;
}
