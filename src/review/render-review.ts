import type { ResultSection } from '../reporting/run-result.js';
import type { ReviewFinding, ReviewReport } from './review-report.js';
import { reviewEn, type ReviewStrings } from './review-strings.js';

/** `src/auth.js:42` */
export function findingLocation(finding: Pick<ReviewFinding, 'file' | 'line'>): string {
  return `${finding.file}:${finding.line}`;
}

/** One finding as a Markdown list item: location, what is wrong, the suggested fix. */
export function renderFinding(finding: ReviewFinding, t: ReviewStrings = reviewEn): string {
  return `- \`${findingLocation(finding)}\`: ${oneParagraph(finding.problem)}\n  ${t.suggestedFix} ${indentLines(finding.suggestedFix)}`;
}

/**
 * The review grouped by severity in the requested label set, most severe first. Every label is shown
 * (with "None." when empty) so the reader sees what was checked; a review without findings says so plainly. Wrench's
 * words in `t` (the thread's language), the labels and the findings as they are.
 */
export function reviewSections(report: ReviewReport, labels: readonly string[], t: ReviewStrings = reviewEn): ResultSection[] {
  const sections: ResultSection[] = [];
  if (report.findings.length === 0) {
    sections.push({ title: t.findings, body: t.noFindings });
  } else {
    for (const label of labels) {
      const findings = report.findings.filter((finding) => finding.severity === label);
      sections.push({ title: `${label} (${findings.length})`, body: findings.length ? findings.map((f) => renderFinding(f, t)).join('\n') : t.none });
    }
  }
  if (report.focusAreas.length) {
    sections.push({ title: t.focusAreas, body: report.focusAreas.map((area) => `- ${area.area}: ${oneParagraph(area.assessment)}`).join('\n') });
  }
  return sections;
}

/** "2 findings: 1 Critical, 1 Minor" or "no findings". */
export function findingsCount(report: ReviewReport, labels: readonly string[], t: ReviewStrings = reviewEn): string {
  if (report.findings.length === 0) return t.noFindingsCount;
  const counts = labels
    .map((label) => [label, report.findings.filter((f) => f.severity === label).length] as const)
    .filter(([, count]) => count > 0)
    .map(([label, count]) => t.countOf(count, label));
  return t.findingsCount(report.findings.length, counts.join(', '));
}

function oneParagraph(text: string): string {
  return text.trim().replace(/\n{2,}/g, '\n');
}

/** Keeps multi-line fixes (code) inside the list item. */
function indentLines(text: string): string {
  return text.trim().split('\n').join('\n  ');
}
