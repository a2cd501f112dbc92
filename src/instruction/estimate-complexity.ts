import type { Category, Complexity } from './instruction-types.js';
import type { RecognisedInstruction } from './recognise-elements.js';
import { hasBroadScope, hasUnboundedScope, isArchitectural, isWholeSystemRewrite } from './scope-cues.js';

/** Work a category usually needs before the first line changes: triage and scraping always involve discovery. */
const BASELINE: Record<Category, number> = {
  testing: 0,
  'data-analysis': 0,
  'web-scraping': 2,
  'code-review': 0,
  'bug-fixing': 1,
  feature: 0,
  refactoring: 0,
  'incident-triage': 2,
};
/** Categories where an instruction without a code location means searching the code first. */
const DISCOVERY_WITHOUT_LOCATION: ReadonlySet<Category> = new Set(['testing', 'bug-fixing', 'feature', 'refactoring']);

const INTEGRATION = /\b(?:endpoints?|api|database|db|migrations?|schema|redis|queues?|cache|caching|middleware|mocks?|mocking|e-?mails?|mailer|webhooks?|tokens?|oauth|retr(?:y|ies)|pagination|s3|kafka|graphql|sessions?|cron|websockets?|third[- ]party|stripe|payments?)\b/gi;
const INVESTIGATION = /\b(?:production|prod|stack ?trace|regression|started after|since (?:the )?(?:deploy|release|upgrade)|reproduc\w*|intermittent\w*|flaky|race condition|memory leak|leaks?|deadlock|performance|slow|latency)\b/i;
const EXISTING_PATTERN = /\b(?:like|follow(?:ing)?|same as|similar to|mirror(?:ing)?|as in|the way|existing pattern|how [`\w-]+ (?:is|are) (?:handled|done))\b/i;
const COVERAGE_TARGET = /\bcoverage\b[^.]*?(?:>=|≥|at least|above|\d+\s*%)/i;
const MANY_OUTPUTS = /\b(?:split\b[^.]*\binto|one file per|per resource|for each|across|every|all (?:the )?(?:endpoints|routes|files|modules|services|callers|usages))\b/i;
const BUILD_REUSABLE = /\b(?:reusable|pipeline|scheduled|automat\w+|cli|tool|dedupe|de-?duplicat\w+|validat\w+)\b/i;

const MEDIUM_FROM = 2;
const COMPLEX_FROM = 6;

/**
 * simple: one file, clear requirements, an existing pattern to follow; medium: several files, some discovery,
 * integration; complex: architectural work across several components, or a scope too large to bound.
 */
export function estimateComplexity(category: Category, recognised: RecognisedInstruction): Complexity {
  const { elements, cues } = recognised;
  if (isWholeSystemRewrite(cues.lower) || isArchitectural(cues.lower)) return 'complex';
  if (category === 'feature' && hasUnboundedScope(elements, cues)) return 'complex';

  const codeFiles = distinctFiles([...cues.references.files, ...cues.references.directories]);
  let score = BASELINE[category];
  score += Math.min(3, Math.max(0, codeFiles - 1));
  const requirementCount = elements.requirements?.length ?? 0;
  if (requirementCount >= 3) score += 1;
  if (requirementCount >= 6) score += 1;
  const integrations = new Set((cues.lower.match(INTEGRATION) ?? []).map((word) => word.replace(/s$/, '')));
  score += Math.min(2, Math.floor(integrations.size / 2) + (integrations.size > 0 ? 0.5 : 0));
  if (INVESTIGATION.test(cues.lower) || cues.errorOutput) score += 1;
  if (COVERAGE_TARGET.test(cues.lower)) score += 1;
  if (MANY_OUTPUTS.test(cues.lower)) score += 1;
  if (category === 'data-analysis' && BUILD_REUSABLE.test(cues.lower)) score += 1;
  if (DISCOVERY_WITHOUT_LOCATION.has(category) && codeFiles === 0 && (elements.location?.length ?? 0) === 0) score += 1;
  if (hasBroadScope(cues.lower)) score += 2;
  if (EXISTING_PATTERN.test(cues.lower)) score -= 1;

  if (score >= COMPLEX_FROM) return 'complex';
  return score >= MEDIUM_FROM ? 'medium' : 'simple';
}

/** Files counted once whatever the spelling: `src/x.ts`, `x.ts` and `src/x.ts:42` are one file. Globs name a pattern, not work. */
function distinctFiles(paths: string[]): number {
  const names = new Set<string>();
  for (const path of paths) {
    if (/^line \d+$/.test(path) || path.includes('*')) continue;
    const name = path.replace(/:\d+(?::\d+)?$/, '').replace(/\/$/, '');
    names.add(name.split('/').pop() ?? name);
  }
  return names.size;
}
