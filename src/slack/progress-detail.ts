import { en, type ThreadStrings } from './strings/en.js';

type Progress = ThreadStrings['progress'];

/**
 * The runner's progress details (English free text, as the run page and `wrench run` show them) read back into the
 * catalogue's phrases: each pattern names the phrase and picks its parameters (repositories, branches, paths and
 * commands, which stay as they are). A detail no pattern knows is shown as it came.
 */
const PATTERNS: [RegExp, (m: (group: number) => string, p: Progress) => string][] = [
  [/^cloning (\S+?)( \(read-only\))?$/, (m, p) => p.cloning(m(1), !!m(2))],
  [/^checking out the head of #(\d+) \(read-only\)$/, (m, p) => p.checkingOutHead(m(1))],
  [/^checking out (\S+)$/, (m, p) => p.checkingOut(m(1))],
  [/^reading pull request #(\d+)$/, (m, p) => p.readingPull(m(1))],
  [/^installing dependencies \((`[^`]+`)\)$/, (m, p) => p.installing(m(1))],
  [/^installing Node\.js (\S+) \((.+)\)$/, (m, p) => p.installingNode(m(1), m(2))],
  [/^refreshing the restored dependencies \((`[^`]+`)\)$/, (m, p) => p.refreshing(m(1))],
  [/^reviewing #(\d+)$/, (m, p) => p.reviewingPull(m(1))],
  [/^measuring coverage on the base commit \((`[^`]+`)\)$/, (m, p) => p.coverageOnBase(m(1))],
  [/^downloading (\d+) attached files?$/, (m, p) => p.downloading(Number(m(1)))],
  [/^pushing (`[^`]+`) and opening a draft pull request$/, (m, p) => p.pushingDraft(m(1))],
  [/^pushing (\S+)$/, (m, p) => p.pushing(m(1))],
  [/^keeping the work so far on (\S+)$/, (m, p) => p.keepingWork(m(1))],
  [/^asked (<@[A-Z0-9]+>) a question$/, (m, p) => p.askedQuestion(m(1))],
  [/^running (`.+`)$/, (m, p) => p.running(m(1))],
  [/^reading (\S+)$/, (m, p) => p.reading(m(1))],
  [/^editing (\S+)$/, (m, p) => p.editing(m(1))],
];

/** The fixed phrases, by their English words. */
const FIXED = new Map(Object.entries(en.progress).flatMap(([key, value]) => (typeof value === 'string' ? [[value, key as keyof Progress] as const] : [])));

/** `detail` in the thread's language (`strings`); as it is when the catalogue lacks the phrase or none matches. */
export function localizeDetail(detail: string | undefined, strings: ThreadStrings): string | undefined {
  if (detail === undefined || strings.progress === en.progress) return detail;
  const fixed = FIXED.get(detail);
  if (fixed) return strings.progress[fixed] as string;
  for (const [pattern, render] of PATTERNS) {
    const match = pattern.exec(detail);
    // A group that took part in no match is '' (for `cloning`'s optional read-only).
    if (match) return render((group) => match[group] ?? '', strings.progress);
  }
  return detail;
}
