import { clipText, neutralizeTags } from '../triage/untrusted-text.js';
import type { PullRequestData } from './pull-request-data.js';

const MAX_DIFF_CHARS = 120_000;
const MAX_BODY_CHARS = 8_000;

/** The pull request as the reviewing agent reads it (quoted as untrusted): metadata, files, then the diff. */
export function pullRequestContext(pr: PullRequestData): string {
  const files = pr.files.map((file) => {
    const renamed = file.previousFilename ? ` (renamed from ${file.previousFilename})` : '';
    const binary = file.patch === undefined ? ', no textual diff' : '';
    return `- ${file.filename}: ${file.status}${renamed}, +${file.additions} -${file.deletions}${binary}`;
  });
  const diff = pr.files
    .filter((file) => file.patch !== undefined)
    .map((file) => `--- ${file.previousFilename ?? file.filename}\n+++ ${file.filename}\n${file.patch}`)
    .join('\n');
  const text = [
    `Pull request #${pr.number}: ${pr.title}`,
    `Author: ${pr.author}; state: ${pr.merged ? 'merged' : pr.state}${pr.draft ? ' (draft)' : ''}; ${pr.head.ref} (${pr.head.sha.slice(0, 12)}) into ${pr.base.ref} (${pr.base.sha.slice(0, 12)})`,
    '',
    'Description:',
    clipText(pr.body.trim() || '(none)', MAX_BODY_CHARS),
    '',
    `Files changed (${pr.files.length}):`,
    ...files,
    '',
    'Diff (line numbers in the @@ headers; review comments refer to lines of the new version):',
    clipText(diff || '(no textual changes)', MAX_DIFF_CHARS),
  ].join('\n');
  return neutralizeTags(text);
}
