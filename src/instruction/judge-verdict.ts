import { MISSING_ELEMENTS, type MissingElement, type RecognisedInstruction, type SureHold, type Verdict } from './instruction-types.js';
import type { Category } from '../categories.js';
import { describesSymptom } from './problem-cues.js';
import { hasUnboundedScope, isOnlySubjectiveGoal, isPurelySubjective, MODEL_BUILDING } from './scope-cues.js';
import { ASK_PREFIX } from './sentences.js';
import { namesDataSource, namesSources, namesTarget, pointsAtPlace } from './target-cues.js';

export interface Judgement {
  verdict: Verdict;
  missing: MissingElement[];
  /** The rules are sure: no other reader may let it through. */
  hold?: SureHold;
}

/** How a model's quality is measured. */
const MODEL_METRIC = /\b(?:accuracy|auc|roc|precision|recall|f1|rmse|mae|mape|r2|r²|log ?loss)\b/i;
/** An issue template left unfilled: "Do something", "Describe the dataset here", "Your Bug Name". */
const TEMPLATE_PLACEHOLDER =
  /\b(?:do something(?: else)?|do one last thing|your (?:bug|feature|issue) (?:name|title)|describe (?:the|your) [\w ]{1,40} here|[\w ]{1,30} details here|(?:add|insert|write|put) (?:a |the |your )?(?:description|details|steps|screenshots?) here|steps to reproduce the behaviou?r)\b|<!--|\(?please (?:fill in|complete|add specific)\b/i;
/** The details are left to someone else: "Jesse can give more detail?", "details TBD". */
const DEFERRED_DETAILS =
  /\b(?:can|could|will|would) (?:probably |maybe )?(?:give|provide|share|fill in) (?:you )?(?:more |the )?details?\b|\bask \w+ for (?:more )?details\b|\bdetails? (?:to follow|tbd|tbc)\b|\btbd\b/i;
/** What to do is left in a conversation or a document the instruction does not include: "the feature we discussed". */
const UNSTATED_CONTEXT =
  /\b(?:as (?:we )?(?:discussed|agreed|mentioned)|(?:we|you|i) (?:discussed|talked about|agreed on|mentioned)(?: (?:earlier|yesterday|before|last week))?|the (?:new )?(?:design|mockups?|spec|plan) (?:from|in) (?:the )?(?:meeting|call|standup)|(?:from|in|per|see) the (?:ticket|jira ticket|jira|doc|spec|meeting|call)(?! #?\d))\b/i;
/** A verb that asks for attention, not for a change: "help with the deployment", "look at the memory usage". */
const ATTENTION_ONLY = new RegExp(
  String.raw`^${ASK_PREFIX}(?:help(?: (?:me|us))? with|look (?:at|into)|check(?: on)?|deal with|work on|do something about|take care of|handle (?:the )?(?:edge cases|errors|it|this|that|things|everything)(?!\s+(?:where|when|in which|by|with|that|so)))\b`,
  'i',
);
/** The ask opens with a change to make, not a repair: what to do is said, there is no symptom to describe. */
const CHANGE_REQUEST = new RegExp(
  String.raw`^${ASK_PREFIX}(?:add|make|translate|locali[sz]e|show|hide|display|move|rename|replace|remove|delete|change|update|allow|let|use|set|send|sort|format|convert|cache|validate|log|limit|increase|reduce|raise|lower|disable|enable|support|expose|return|include|exclude|wrap|split|merge|extract|upgrade|bump|document)\b`,
  'i',
);
/** What a review needs to look at: a pull request, commit, branch, file, or the diff itself. */
const REVIEW_OBJECT = /\b(?:the|this|my|our|that) (?:diff|patch|changeset|branch|commit)\b|\bbranch [\w./-]+/i;

/** A report forwarded from an error tracker: the error and a link, with the place in the code left out. */
const ERROR_TRACKER = /\b(?:sentry|bugsnag|rollbar|crashlytics|raygun|honeybadger|airbrake|created automatically|auto-?generated)\b/i;
/** When it happens: an action, a moment, a condition. */
const CIRCUMSTANCE =
  /\b(?:when(?:ever)?|while|after|during|if|on (?:startup|start-up|boot|load|launch)|each time|every time|upon|click\w*|tap(?:s|ped|ping)?|press\w*|submit\w*|upload\w*|log(?:s|ging)? in|sign(?:s|ing)? in|scroll\w*|navigat\w*|refresh\w*|resiz\w*)\b/i;
/** Words of testing itself: what is left once they are gone names what to test, if anything. */
const TEST_VOCABULARY =
  /^(?:unit|integration|e2e|end-to-end|snapshot|smoke|regression|coverage|covered|uncovered|untested|missing|more|pass|passes|passing|first|second|increase|increasing|raise|raising|aim|aiming|taking|back|percent|suite|suites|tests?|testing|tested|specs?|cases?|modules?|components?|functions?|adding|writing|needed|gaps?|details|without|existing|level|target|goal|higher|lower|above|below|over|under|least|reach|overall|lines?|branches|statements?|jest|vitest|pytest|mocha)$/;
const TEST_FAILURE = /\b(?:fail|fails|failing|failed|broken|red)\b/;
const VAGUE_PROBLEM =
  /^\W*(?:it'?s |it is |something(?:'s| is) |everything(?:'s| is) )?(?:(?:just|totally|completely|kind of)\s+)?(?:broken|wrong|not working|bad|weird|off|on fire|messed up)\b/i;
/**
 * Something that happens at a moment, told as a statement: "users get logged out every time they switch tabs". The
 * part before the moment opens with who or what (not an order, not "there is" or "it") and says more than a vague
 * word for trouble.
 */
const EVENT_AT_A_MOMENT =
  /^((?:the|our|my|your|their|some|all|most|many|new|users?|customers?|people|clients?|visitors?|members?|admins?|i|we|they|[a-z]+s)\b(?:\s+[\w'.-]+){2,11}?)\s+(?:every time|each time|whenever|when|while|after|as soon as)\s+\w+/i;
const TROUBLE_WORD = /\b(?:broken|wrong|weird|off|bad|issues?|problems?|bugs?|buggy|not working|doesn'?t work|does not work|acting up)\b/i;
const ANALYSIS_QUESTION =
  /\b(?:statistics|stats|metrics|kpis?|revenue|average|median|mean|sum|total|count|distribution|trends?|cohorts?|funnel|retention|churn|conversion|correlat\w*|breakdown|per (?:day|week|month|user|customer|country|region)|by (?:day|week|month|country|region|plan|product|channel|source)|daily|weekly|monthly|top \d+|how many|which \w+|what(?:'s| is| are| was| were) (?:the|our)|why (?:did|does|is|are|do)|compare|growth|rate|percentage|share|ratio|outliers?|anomal\w*|forecast)\b/i;

/**
 * Gaps the code cannot answer make an instruction ill-formed. What would merely improve a clear one (a review's
 * focus, a scraper's pacing) is for the model reader and the agent to weigh, not for the rules to list.
 */
export function judgeVerdict(category: Category, recognised: RecognisedInstruction): Judgement {
  const { elements, cues } = recognised;
  const blocking = new Set<MissingElement>();
  const target = namesTarget(elements, cues);
  if (TEMPLATE_PLACEHOLDER.test(cues.prose)) blocking.add(category === 'bug-fixing' || category === 'incident-triage' ? 'observed-problem' : 'requirements');
  if (DEFERRED_DETAILS.test(cues.prose) || (UNSTATED_CONTEXT.test(cues.prose) && !elements.references?.urls?.length)) blocking.add('requirements');
  if (ATTENTION_ONLY.test(cues.head) && category !== 'code-review' && category !== 'incident-triage' && saysNothingMore(recognised))
    blocking.add('requirements');
  if (isOnlySubjectiveGoal(elements, cues) && category !== 'incident-triage') {
    if (!target) blocking.add('target');
    blocking.add('success-criteria');
  }
  // Where the code is, the agent can find once it knows what goes wrong: a place is asked for only alongside
  // another gap, or when an error tracker's report gives nothing but the error.
  const unplaced = new Set<MissingElement>();
  switch (category) {
    case 'testing':
      if (!target || !namesTestSubject(cues)) blocking.add('target');
      // Failing tests are a bug report about the tests: say how they fail.
      if (TEST_FAILURE.test(cues.lower) && !describesObservedProblem(recognised)) blocking.add('observed-problem');
      if (!pointsAtPlace(elements, cues)) unplaced.add('location');
      break;
    case 'bug-fixing':
      if (!target) blocking.add('target');
      // "Translate the error messages into French" asks for a change; only a report needs to say what goes wrong.
      if (!describesObservedProblem(recognised) && !CHANGE_REQUEST.test(cues.head)) blocking.add('observed-problem');
      if (isTrackerDump(recognised)) blocking.add('location');
      else if (!pointsAtPlace(elements, cues)) unplaced.add('location');
      break;
    case 'incident-triage':
      if (!describesObservedProblem(recognised)) blocking.add('observed-problem');
      break;
    case 'feature':
      if (!target) blocking.add('target');
      else if (hasUnboundedScope(elements, cues)) blocking.add('scope');
      break;
    case 'data-analysis':
      if (!namesDataSource(elements, cues)) blocking.add('target');
      if (!asksAnalysisQuestions(recognised)) blocking.add('success-criteria');
      break;
    case 'web-scraping':
      if (!namesSources(elements, cues)) blocking.add('target');
      break;
    case 'code-review':
      if (!reviewObject(recognised)) blocking.add('target');
      break;
    case 'refactoring':
      if (!target) blocking.add('target');
      break;
  }
  if (blocking.size > 0) return { verdict: 'ill-formed', missing: inContractOrder(new Set([...blocking, ...unplaced])), hold: sureHold(recognised) };
  return { verdict: 'well-formed', missing: [] };
}

/** An ask that names nothing at all ("tests", "fix it"), or only a matter of taste with no target ("make it better"). */
function sureHold({ elements, cues }: RecognisedInstruction): SureHold | undefined {
  const references = cues.references;
  const pointers =
    (elements.location?.length ?? 0) +
    (elements.references?.urls?.length ?? 0) +
    references.prNumbers.length +
    references.commits.length +
    references.repositories.length +
    references.routes.length +
    cues.codeBlocks.length;
  if (pointers > 0 || Object.keys(cues.sections).length > 0) return undefined;
  if (cues.specific.length === 0 && !cues.errorOutput) return 'empty';
  return isPurelySubjective(elements, cues) ? 'subjective' : undefined;
}

/** An error tracker's forwarded report (the error and a link): no file, no moment, no steps, whatever its page. */
function isTrackerDump({ elements, cues }: RecognisedInstruction): boolean {
  if (!ERROR_TRACKER.test(cues.prose) || cues.references.files.length > 0) return false;
  return !CIRCUMSTANCE.test(cues.prose) && (elements.observedProblem?.reproduction?.length ?? 0) === 0;
}

/** One sentence and nothing beside it: no requirements, criteria, constraints, code, error or reference. */
function saysNothingMore({ elements, cues }: RecognisedInstruction): boolean {
  const parts =
    (elements.requirements?.length ?? 0) +
    (elements.successCriteria?.length ?? 0) +
    (elements.constraints?.length ?? 0) +
    (elements.location?.length ?? 0) +
    (elements.references?.urls?.length ?? 0) +
    cues.codeBlocks.length;
  return parts === 0 && !cues.errorOutput && !cues.symptom;
}

/** What the tests are for, beyond testing's own words ("add missing unit tests", "raise coverage"). */
function namesTestSubject(cues: RecognisedInstruction['cues']): boolean {
  const references = cues.references;
  if (references.files.length + references.directories.length + references.functions.length + references.routes.length > 0) return true;
  if (cues.sections.target?.trim() || cues.sections.location?.trim()) return true;
  return cues.specific.some((word) => !TEST_VOCABULARY.test(word));
}

/** A symptom someone could check: an error, a reproduction, or a concrete description of what goes wrong and where. */
function describesObservedProblem({ elements, cues }: RecognisedInstruction): boolean {
  const problem = elements.observedProblem;
  if (cues.specific.length === 0 && !cues.errorOutput) return false;
  if (cues.errorOutput || problem?.error || problem?.reproduction?.length) return true;
  const labelled = [cues.sections.observed, cues.sections.expected, cues.sections.actual].filter(Boolean).join(' ');
  if (labelled && (describesSymptom(labelled) || (labelled.split(/\s+/).length >= 5 && !VAGUE_PROBLEM.test(labelled)))) return true;
  if (cues.symptom) return true;
  const event = EVENT_AT_A_MOMENT.exec(cues.head.trim());
  return !!event && !TROUBLE_WORD.test(event[1] ?? '');
}

/** A review names what to read: a PR, commit or repository link, a file or function, or the diff or branch in hand. */
function reviewObject({ elements, cues }: RecognisedInstruction): boolean {
  const references = cues.references;
  if (cues.sections.target?.trim() || cues.sections.location?.trim() || cues.sections.repository?.trim()) return true;
  if ((elements.location?.length ?? 0) > 0 || (elements.references?.urls?.length ?? 0) > 0 || cues.codeBlocks.length > 0) return true;
  if (references.prNumbers.length + references.commits.length + references.repositories.length + references.functions.length > 0) return true;
  return REVIEW_OBJECT.test(cues.prose);
}

function asksAnalysisQuestions({ elements, cues }: RecognisedInstruction): boolean {
  // A model is judged by a metric: "predict churn" says what, not how good.
  if (MODEL_BUILDING.test(cues.lower)) return (elements.successCriteria?.length ?? 0) > 0 || MODEL_METRIC.test(cues.lower);
  return (
    (elements.requirements?.length ?? 0) > 0 ||
    (elements.successCriteria?.length ?? 0) > 0 ||
    !!cues.sections.outputFormat ||
    (elements.focusAreas?.length ?? 0) > 0 ||
    ANALYSIS_QUESTION.test(cues.prose)
  );
}

function inContractOrder(gaps: Set<MissingElement>): MissingElement[] {
  return MISSING_ELEMENTS.filter((element) => gaps.has(element));
}
