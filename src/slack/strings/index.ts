import { de } from './de.js';
import { type Catalogue, en, type ThreadStrings } from './en.js';
import { es } from './es.js';
import { fr } from './fr.js';
import { ja } from './ja.js';
import { pt } from './pt.js';
import { zh } from './zh.js';

export type { ThreadStrings } from './en.js';

const CATALOGUES: Record<string, Catalogue> = { en, de, ja, es, fr, pt, zh };

/** The languages a thread can be spoken in (BCP 47 primary subtags). */
export const THREAD_LANGUAGES = Object.keys(CATALOGUES);

/** Chinese written in Traditional characters (Taiwan, Hong Kong, Macau, or said so): the zh catalogue is Simplified. */
const TRADITIONAL_CHINESE = /^zh[-_](?!hans)(?:.*[-_])?(?:hant|tw|hk|mo)(?:[-_]|$)/i;

/** The catalogue a BCP 47 tag is spoken in: its primary subtag's, none for Traditional Chinese. */
function catalogueKey(language: string | undefined): string | undefined {
  if (!language || TRADITIONAL_CHINESE.test(language)) return undefined;
  const primary = language.toLowerCase().split(/[-_]/)[0];
  return primary && CATALOGUES[primary] ? primary : undefined;
}

/**
 * The thread's strings in `language` (BCP 47: `de`, `de-AT`, `ja-JP`, `zh-CN`…), English for any other (Traditional
 * Chinese too: `zh-TW`, `zh-HK`, `zh-Hant`) and for what one lacks.
 */
export function stringsFor(language?: string): ThreadStrings {
  const catalogue = CATALOGUES[catalogueKey(language) ?? 'en'];
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
    github: { ...en.github, ...catalogue.github },
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
    answer: { ...en.answer, ...catalogue.answer },
    regression: { ...en.regression, ...catalogue.regression },
    coverage: { ...en.coverage, ...catalogue.coverage, metrics: { ...en.coverage.metrics, ...catalogue.coverage?.metrics } },
    analysis: { ...en.analysis, ...catalogue.analysis },
    images: { ...en.images, ...catalogue.images },
    schedules: catalogue.schedules ?? en.schedules,
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
  // A bare "zh" (Han text whose characters did not say which script) from someone whose Slack is in Traditional Chinese is theirs.
  const traditional = written?.toLowerCase() === 'zh' && slackLocale !== undefined && TRADITIONAL_CHINESE.test(slackLocale);
  return (traditional ? undefined : catalogueKey(written ?? slackLocale)) ?? 'en';
}
