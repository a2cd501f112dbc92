import { de } from './de.js';
import { type Catalogue, en, type ThreadStrings } from './en.js';
import { es } from './es.js';
import { fr } from './fr.js';
import { ja } from './ja.js';
import { pt } from './pt.js';

export type { ThreadStrings } from './en.js';

const CATALOGUES: Record<string, Catalogue> = { en, de, ja, es, fr, pt };

/** The languages a thread can be spoken in (BCP 47 primary subtags). */
export const THREAD_LANGUAGES = Object.keys(CATALOGUES);

/** The thread's strings in `language` (BCP 47: `de`, `de-AT`, `ja-JP`…), English for any other and for what one lacks. */
export function stringsFor(language?: string): ThreadStrings {
  const primary = language?.toLowerCase().split(/[-_]/)[0] ?? 'en';
  const catalogue = CATALOGUES[primary];
  if (!catalogue || catalogue === en) return en;
  return {
    ...en,
    ...catalogue,
    categories: { ...en.categories, ...catalogue.categories },
    complexity: { ...en.complexity, ...catalogue.complexity },
    phases: { ...en.phases, ...catalogue.phases },
    statusLine: { ...en.statusLine, ...catalogue.statusLine },
    notQueued: { ...en.notQueued, ...catalogue.notQueued },
    modal: { ...en.modal, ...catalogue.modal },
    clarifying: { ...en.clarifying, ...catalogue.clarifying, target: { ...en.clarifying.target, ...catalogue.clarifying?.target } },
    triage: { ...en.triage, ...catalogue.triage, confidence: { ...en.triage.confidence, ...catalogue.triage?.confidence } },
    report: { ...en.report, ...catalogue.report },
    stop: { ...en.stop, ...catalogue.stop },
    progress: { ...en.progress, ...catalogue.progress },
    refactoring: { ...en.refactoring, ...catalogue.refactoring },
    plan: { ...en.plan, ...catalogue.plan, stages: { ...en.plan.stages, ...catalogue.plan?.stages } },
    failure: { ...en.failure, ...catalogue.failure },
    errors: { ...en.errors, ...catalogue.errors },
    draft: { ...en.draft, ...catalogue.draft },
    review: { ...en.review, ...catalogue.review },
    regression: { ...en.regression, ...catalogue.regression },
    coverage: { ...en.coverage, ...catalogue.coverage, metrics: { ...en.coverage.metrics, ...catalogue.coverage?.metrics } },
    analysis: { ...en.analysis, ...catalogue.analysis },
    verification: {
      ...en.verification,
      ...catalogue.verification,
      verdicts: { ...en.verification.verdicts, ...catalogue.verification?.verdicts },
    },
  };
}

/**
 * The language a thread speaks: the one the requester wrote in (as the reader read it; English when Wrench has no
 * catalogue for it), else, when the writing told nothing, their Slack locale.
 */
export function threadLanguage(written?: string, slackLocale?: string): string {
  const primary = (written ?? slackLocale)?.toLowerCase().split(/[-_]/)[0];
  return primary && CATALOGUES[primary] ? primary : 'en';
}
