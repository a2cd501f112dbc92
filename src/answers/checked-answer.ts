import type { AnswerReport } from './answer-report.js';
import type { AnswerStrings } from './answer-strings.js';
import { type CheckedCitation, type Citation, checkCitations, inlineCitations, parseCitation } from './citations.js';

/** Where an answer was read: the checkout, the commit, and the repository's web page for links (none: not linked). */
export interface AnswerSource {
  dir: string;
  sha: string;
  /** e.g. https://github.com/acme/web (GIT_BASE_URL and the repository); without it citations are shown unlinked. */
  htmlBase?: string;
}

/** An answer whose citations were checked against the commit it was read at: links for those that hold, none for the rest. */
export interface CheckedAnswer {
  /** The answer in Markdown: citations that hold are links to their lines at the commit; the others are marked removed. */
  answer: string;
  /** One Markdown line per claim: the statement, then its citations that hold (linked). */
  claims: string[];
  notFound: string[];
  /** The citations removed, each once, in the order they were written. */
  removed: Array<Extract<CheckedCitation, { ok: false }>>;
  /** The citations that hold, each once. */
  kept: Citation[];
  /** The same answer in plain text with its checked citations as written: the findings a follow-up run starts from. */
  findings: string;
}

/**
 * Checks every citation of the agent's answer (in its text, its claims' statements and their citation lists) against
 * the tree at `source.sha` and renders the answer with only the citations that hold, as links to those lines at that
 * commit. The agent's words are untrusted: Markdown links it wrote are reduced to their text, so the only links in the
 * answer are the ones Wrench made from checked citations.
 */
export async function checkAnswer(report: AnswerReport, source: AnswerSource, t: AnswerStrings): Promise<CheckedAnswer> {
  const answerText = withoutLinks(report.answer);
  const statements = report.claims.map((claim) => ({
    text: withoutLinks(claim.statement),
    listed: claim.citations.map((ref) => ({ ref, parsed: parseCitation(ref) })),
  }));
  const all: Citation[] = [
    ...inlineCitations(answerText).map((found) => found.citation),
    ...statements.flatMap((claim) => [
      ...inlineCitations(claim.text).map((found) => found.citation),
      ...claim.listed.map(({ ref, parsed }) => parsed ?? { ref: ref.trim(), path: '' }),
    ]),
  ];
  const unique = [...new Map(all.map((citation) => [citation.ref, citation])).values()];
  const checks = new Map((await checkCitations(source.dir, source.sha, unique)).map((check) => [check.citation.ref, check]));
  const holds = (citation: Citation) => checks.get(citation.ref)?.ok === true;

  const link = (citation: Citation) => {
    const url = citationUrl(source, citation);
    return url ? `[${citation.ref}](${url})` : `\`${citation.ref}\``;
  };
  const render = (text: string) => replaceInline(text, (citation) => (holds(citation) ? link(citation) : t.removedMark));
  const plain = (text: string) => replaceInline(text, (citation) => (holds(citation) ? citation.ref : ''));

  const claims = statements.map((claim) => {
    const listed = claim.listed.map(({ ref, parsed }) => parsed ?? { ref: ref.trim(), path: '' }).filter(holds);
    const inline = inlineCitations(claim.text).filter((found) => holds(found.citation));
    const cited = listed.length > 0 || inline.length > 0;
    const links = [...new Map(listed.map((citation) => [citation.ref, citation])).values()].map(link).join(', ');
    return `- ${render(claim.text)}${links ? ` (${links})` : ''}${cited ? '' : ` ${t.uncited}`}`;
  });
  const removed = [...checks.values()].filter((check): check is Extract<CheckedCitation, { ok: false }> => !check.ok);
  const kept = [...checks.values()].filter((check) => check.ok).map((check) => check.citation);

  const findings = [
    plain(answerText),
    ...statements.map((claim) => {
      const listed = claim.listed.map(({ ref, parsed }) => parsed ?? { ref, path: '' }).filter(holds);
      return `- ${plain(claim.text)}${listed.length ? ` (${listed.map((c) => c.ref).join(', ')})` : ''}`;
    }),
    ...(report.notFound.length ? ['Not found:', ...report.notFound.map((line) => `- ${withoutLinks(line)}`)] : []),
  ].join('\n');

  return { answer: render(answerText), claims, notFound: report.notFound.map(withoutLinks), removed, kept, findings };
}

/** The lines of a citation on the repository's web page at the commit: …/blob/SHA/path#L10-L12. */
export function citationUrl(source: Pick<AnswerSource, 'htmlBase' | 'sha'>, citation: Citation): string | undefined {
  if (!source.htmlBase || !/^[0-9a-f]{7,64}$/i.test(source.sha)) return undefined;
  const path = citation.path.split('/').map(encodeURIComponent).join('/');
  const anchor =
    citation.start === undefined
      ? ''
      : citation.end !== undefined && citation.end !== citation.start
        ? `#L${citation.start}-L${citation.end}`
        : `#L${citation.start}`;
  return `${source.htmlBase.replace(/\/+$/, '')}/blob/${source.sha}/${path}${anchor}`;
}

function replaceInline(text: string, replacement: (citation: Citation) => string): string {
  let out = '';
  let at = 0;
  for (const found of inlineCitations(text)) {
    out += text.slice(at, found.index) + replacement(found.citation);
    at = found.index + found.length;
  }
  return out + text.slice(at);
}

/** `[text](url)` and `<url|text>` reduced to their text: links in an answer are Wrench's, from checked citations. */
function withoutLinks(text: string): string {
  return text.replace(/\[([^\]\n]*)\]\([^)\n]*\)/g, '$1').replace(/<(?:https?|mailto):[^|>\n]*\|([^>\n]*)>/g, '$1');
}
