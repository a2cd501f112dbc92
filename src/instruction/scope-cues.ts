import type { InstructionCues, InstructionElements } from './instruction-types.js';
import { specificWords } from './target-cues.js';

/** Building a predictive model rather than answering questions about data. */
export const MODEL_BUILDING =
  /\b(?:prediction|predictive|forecasting|classification|churn|propensity) models?\b|\b(?:train|fit) (?:a |an )?(?:model|classifier)\b|\bmachine learning\b|\bml model\b/i;
/** Areas that need saying which part before any work, though not large ones: "add rate limiting". */
const UNDERSPECIFIED_AREA =
  /\b(?:rate[- ]limit(?:ing|s)?|throttling|pagination|logging|metrics|feature flags?|retries|input validation|validation|webhooks?|exports?|imports?|dark mode)\b/i;

/** Product-sized things: even described in a sentence they need a list of what to build. */
const PRODUCT =
  /\b(?:(?:slack |discord |chat ?|telegram )?bot|chatbot|assistant|(?:an?|new) (?:app|application|platform|service|website|site|tool|system|cms|crm|marketplace|game|social network|backend|frontend)|social network|marketplace|crm|cms)\b/i;

/** Areas too large to build from a one-line request: payments, authentication, search, notifications... */
export const LARGE_AREA =
  /\b(?:auth|authentication|authori[sz]ation|user accounts?|accounts|login system|payments?|billing|subscriptions?|checkout|search|notifications?|chat|messaging|analytics|admin (?:panel|dashboard|area|ui|interface)|i18n|internationali[sz]ation|locali[sz]ation|multi-?tenan\w+|sso|single sign-on|oauth|permissions|rbac|roles|onboarding|offline (?:mode|support)|mobile app|an api|a backend|graphql|real-?time|collaboration|reporting|recommendations?|machine learning|ai|marketplace|social (?:login|features)|plugin system|crm|e-?commerce|shopping cart|inventory|invoicing|two[- ]factor|2fa|mfa|accessibility|caching|monitoring|observability|audit log(?:ging|s)?|dashboards?|user management|custom domains?|white[- ]label\w*|multi-?currency|multi-?language|versioning|workflows?|team accounts|organi[sz]ations|workspaces)\b/i;
const BOUNDED_ARTEFACT =
  /\b(?:endpoints?|routes?|flags?|options?|buttons?|fields?|columns?|forms?|functions?|commands?|migrations?|param(?:eter)?s?|headers?|modals?|toggles?|tabs?|links?|env(?:ironment)? var(?:iable)?s?|settings? (?:to|for|in)|middleware|hooks?|tests?|pages?|methods?|helpers?|banners?|tooltips?|badges?|emails? (?:to|when|for)|query|queries|webhook (?:for|to|that|handler)|handler|job)\b/i;
const SUBJECTIVE =
  /\b(?:make (?:it|this|things|everything|(?:the |our )?[\w-]+(?: [\w-]+)?) (?:better|faster|nicer|cleaner|prettier|smoother|easier|simpler|snappier|friendlier|more \w+|less \w+|good|great|work better|pop)|improve|improvements?|clean ?up|cleanup|refactor|rework|restructure|simplify|(?:is|are) (?:terrible|awful|bad|poor|horrible|ugly|messy|a mess|too low|not great|meh)|tidy(?: up)?|polish|optimi[sz]e|moderni[sz]e|spruce up|beautify|sort out|better|nicer|best practices|more (?:readable|maintainable|robust|elegant|scalable|performant)|less (?:messy|ugly|slow))\b/i;
/** Qualities that are a matter of taste: what is left of "make it more readable and robust" names nothing. */
const TASTE =
  /^(?:readable|readability|maintainable|maintainability|robust|elegant|scalable|performant|professional|modern|idiomatic|consistent|pretty|beautiful|ugly|messy|slick|sleek|clean|cleaner|simpler|simple|tidier|neater|nicer|good|better|faster|snappier|smoother|lighter|leaner|follow|practices|standards|look|looks|feel|feels|overall|general|generally|stuff|code|quality|style)$/;
const CONCRETE_CHANGE =
  /\b(?:into|so that|to use|split|extract|rename|replace|move|convert|migrate|remove|delete|inline|merge|dedupe|deduplicate|add|use|cache|memoi[sz]e|batch|index|paginate|upgrade|bump|drop|switch)\b|\b\d+(?:\.\d+)?\s*(?:%|ms|s|x|kb|mb|gb|seconds?|minutes?)\b|[<>]=?\s*\d/i;

/** Who a feature is for, or words for having one, do not bound it: "add user authentication", "support for custom domains". */
const UNBOUNDING =
  /^(?:users?|customers?|people|members?|clients?|visitors?|everyone|team|teams|new|basic|simple|proper|full|support|ability|feature|functionality|capability|system|engine|module|solution|mechanism)$/;
const LARGE_AREA_ANYWHERE = new RegExp(`${LARGE_AREA.source}|${UNDERSPECIFIED_AREA.source}`, 'gi');

/** "add payments", "add authentication": a large area with nothing that bounds it. */
export function hasUnboundedScope(elements: InstructionElements, cues: InstructionCues): boolean {
  if (cues.sections.scope?.trim()) return false;
  const product = PRODUCT.test(cues.head);
  if (!product && !LARGE_AREA.test(cues.head) && !UNDERSPECIFIED_AREA.test(cues.head)) return false;
  const qualifiers = specificWords(cues.head.replace(LARGE_AREA_ANYWHERE, ' '));
  const specified =
    (elements.location?.length ?? 0) > 0 ||
    cues.references.routes.length > 0 ||
    (elements.requirements?.length ?? 0) > 0 ||
    (elements.constraints?.length ?? 0) > 0 ||
    (elements.successCriteria?.length ?? 0) > 0 ||
    BOUNDED_ARTEFACT.test(cues.lower) ||
    /\b\d/.test(cues.head) ||
    (!product && qualifiers.some((word) => !UNBOUNDING.test(word)));
  return !specified;
}

/** "make the code more readable", "clean it up": a goal of taste and nothing else the instruction names. */
export function isPurelySubjective(elements: InstructionElements, cues: InstructionCues): boolean {
  return isOnlySubjectiveGoal(elements, cues) && cues.specific.every((word) => TASTE.test(word));
}

/** "clean up the code", "make it better": a goal with nothing measurable or concrete to check it against. */
export function isOnlySubjectiveGoal(elements: InstructionElements, cues: InstructionCues): boolean {
  if (!SUBJECTIVE.test(cues.head)) return false;
  const concrete =
    (elements.requirements?.length ?? 0) > 0 ||
    (elements.successCriteria?.length ?? 0) > 0 ||
    (elements.constraints?.length ?? 0) > 0 ||
    CONCRETE_CHANGE.test(cues.head.replace(SUBJECTIVE, ' ')) ||
    describesEndState(cues.head);
  return !concrete;
}

/** "…so the Stripe calls go through one client instead of being sprinkled across controllers": the end state is said. */
function describesEndState(head: string): boolean {
  const purpose = /\b(?:so(?: that)?|instead of|rather than)\s+(.+)$/i.exec(head)?.[1];
  return !!purpose && specificWords(purpose.toLowerCase()).some((word) => !TASTE.test(word));
}
