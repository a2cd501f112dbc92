export type SentenceRole = 'reproduction' | 'success-criterion' | 'constraint' | 'background' | 'suspect' | 'other';

const REPRODUCTION =
  /^(?:to\s+)?(?:reproduce|repro)\b|\bsteps to reproduce\b|\breproduc(?:e|ible|es) (?:with|by|using|via|on|in)\b|\brepro(?: case)? (?:with|by|using|in)\b/i;
const SUCCESS_CRITERION =
  /\b(?:tests?|specs?|ci|build|lint|checks?|suite|typecheck|tsc)\b[^.]*\b(?:must|should|need to|needs to|have to|has to|to)\s+(?:still\s+|all\s+)?(?:pass|be green|succeed|stay green)\b|\b(?:must|should)\s+(?:still\s+|all\s+)?pass\b|\bcoverage\b[^.]*(?:>=|≥|at least|above|over|\d+\s*%)|\bdone when\b|\bacceptance criteria\b|\bsuccess (?:is|means|criteria)\b|\b(?:ci|tests?) (?:stays? )?(?:green|passing)\b/i;
const CONSTRAINT =
  /^(?:don'?t|do not|never|avoid|no |keep |without |must not|only (?:touch|change|modify|use)|leave )|\bno new (?:dependenc\w*|deps|packages|libraries)\b|\bno behaviou?r changes?\b|\bwithout (?:changing|breaking|adding|touching)\b|\bsame (?:retries|behaviou?r|api|interface|output|signature|semantics|timeouts|format)\b|\bbackwards?[- ]compatible\b|\bno breaking\b|\bread[- ]only\b|\bno (?:schema|api|db|database|ui|public api) changes?\b|\bmust not\b/i;
const BACKGROUND =
  /^(?:fyi|for context|context|background|btw|note that|as background|for reference)\b|^(?:we|i) (?:already )?(?:have|use|got)\b|^there (?:is|are) (?:already )?an? (?:existing )?\w+/i;
const ASKS_SOMETHING = /\b(?:can|could|would) (?:you|someone)\b|\b(?:please|pls|plz)\b|\?\s*$/i;
const SUSPECT_CONTEXT = /\b(?:started|began|broke|regressed|appeared|introduced|since|after|shipped|deployed|released|rolled out|merged|deploy of)\b/i;
const CHANGE_REFERENCE = /\bPR\s*#?\d+|(?<![\w&])#\d+|\b[0-9a-f]{7,40}\b|\b(?:release|version)\s+v?\d+(?:\.\d+)+\b|\bv\d+(?:\.\d+)+\b/g;

/** What an unlabelled sentence contributes besides the task itself. */
export function sentenceRole(sentence: string): SentenceRole {
  if (REPRODUCTION.test(sentence)) return 'reproduction';
  if (SUCCESS_CRITERION.test(sentence)) return 'success-criterion';
  if (BACKGROUND.test(sentence) && !ASKS_SOMETHING.test(sentence)) return 'background';
  if (suspectChanges(sentence).length > 0) return 'suspect';
  if (CONSTRAINT.test(sentence)) return 'constraint';
  return 'other';
}

/** Changes a sentence names as a likely cause: "Started after PR #311" → ["PR #311"]. */
export function suspectChanges(sentence: string): string[] {
  if (!SUSPECT_CONTEXT.test(sentence)) return [];
  return [...sentence.matchAll(CHANGE_REFERENCE)].map((match) => match[0]).filter((ref) => !/^[0-9a-f]+$/.test(ref) || (/\d/.test(ref) && /[a-f]/.test(ref)));
}
