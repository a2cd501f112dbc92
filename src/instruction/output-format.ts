const SAVE_TO =
  /\b(?:save|saves|saved|write|writes|output|outputs|export|exports|dump|dumps|store|stores|emit|emits)\s+(?:it\s+|them\s+|results?\s+|everything\s+|the \w+\s+)?(?:to|as|into|in)\s+(?:an?\s+)?[\w./-]+\.(?:json|jsonl|ndjson|csv|tsv|md|xlsx|parquet|txt|html|png|svg|pdf|sqlite|db)\b/i;
const FORMAT_WORDS = new RegExp(
  [
    String.raw`\bmarkdown\b`,
    String.raw`\b(?:as|in|into|to)\s+(?:a\s+|an\s+)?(?:json|jsonl|csv|tsv|yaml|html|pdf|png|svg|table|spreadsheet|excel|bullet(?:ed)? list|bullets|checklist|diagram)\b`,
    String.raw`\b(?:json|csv|html|pdf|yaml)\s+(?:file|output|report|export|summary|format)\b`,
    String.raw`\b(?:bar|line|pie|funnel)?\s*(?:chart|plot|histogram|graph)s?\b`,
    String.raw`\b(?:a|an|short|brief|written|final|summary|html|pdf|one-page)\s+report\b`,
    String.raw`\b(?:inline|pr|review)\s+comments?\b|\bcomments? (?:inline|on the (?:pr|pull request|diff))\b|\bcomment on the (?:pr|pull request|diff)\b`,
    String.raw`\bseverit(?:y|ies)\b`,
    String.raw`\b(?:list|group(?:ed)?|one (?:line|section|comment)) (?:per|by) (?:file|finding|issue|endpoint|module)\b`,
    String.raw`\b(?:bullet(?:ed)? list|bullet points|checklist|tl;dr|one line per|a table|table of|table with|tables? \+|^tables?)\b`,
    String.raw`\b(?:summary|summarise|summarize)\s+(?:in|as|of)\b`,
    String.raw`\bpng|svg\b`,
  ].join('|'),
  'i',
);

const RESULT_SHAPE =
  /\b(?:markdown|(?:report|post|reply|answer|return|give me|send)\b[^.]{0,40}\b(?:as|in) (?:a |an )?(?:table|markdown|json|csv|bullet(?:ed)? list|bullets|summary|inline comments|pr comments|thread))\b/i;

/**
 * The clause that says what shape the result should take: "Markdown report plus a bar chart PNG", "save to jobs.json".
 * In the task sentence itself only explicit wording counts, so "a flag that prints JSON" stays a feature.
 */
export function findOutputFormat(sentences: string[], taskSentence?: string): string | undefined {
  for (const sentence of sentences) {
    const saveTo = SAVE_TO.exec(sentence);
    if (saveTo) return saveTo[0];
  }
  if (taskSentence && RESULT_SHAPE.test(withoutPaths(taskSentence))) return clauseOf(taskSentence, RESULT_SHAPE);
  for (const sentence of sentences) {
    if (sentence === taskSentence) continue;
    if (!FORMAT_WORDS.test(withoutPaths(sentence))) continue;
    return sentence.split(/\s+/).length <= 14 ? sentence.replace(/[.\s]+$/, '') : clauseOf(sentence, FORMAT_WORDS);
  }
  return undefined;
}

function clauseOf(sentence: string, pattern: RegExp): string {
  const clause = sentence.split(/[,;]\s+|\s+(?=with\b)/).find((part) => pattern.test(withoutPaths(part)));
  return (clause ?? sentence).trim().replace(/[.\s]+$/, '');
}

function withoutPaths(text: string): string {
  return text.replace(/(?<!\S)(?:\S*\/\S*|\S+\.[a-z]{2,5}\b)/gi, ' ');
}
