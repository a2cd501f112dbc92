import type { Complexity, RecognisedInstruction } from './instruction-types.js';
import type { Category } from '../categories.js';
import { hasUnboundedScope, LARGE_AREA, MODEL_BUILDING } from './scope-cues.js';

/** Design-level work: new services, re-architecture, changes across several components. */
const ARCHITECTURAL =
  /\b(?:architect\w*|dependency injection|di container|hexagonal|clean architecture|event[- ]driven|re-?design|from scratch|microservices?|monolith|event[- ]sourc\w*|cqrs|multi-?tenan\w+|shard\w*|distributed|plugin system|across (?:all|every|multiple|several|the whole) (?:services|repos|repositories|components|apps|teams|packages)|several (?:components|services)|multiple (?:services|components)|new service|offline[- ]first|real-?time sync|zero[- ]downtime migration|data migration of|database migration to|switch(?:ing)? (?:the )?(?:database|db|orm|framework) (?:to|from))\b/i;
/** The whole codebase or every file as the object of the work. */
const BROAD_SCOPE =
  /\b(?:code ?base|everywhere|all over|~?\d{2,}\s*(?:files|places|imports|usages|call ?sites|callers|occurrences|modules|components|endpoints|services)|whole (?:repo|app|project|code)|entire (?:repo|app|project|code)|everything|all (?:the )?(?:files|modules|services|endpoints|components|packages|tests)|every (?:file|module|service|endpoint|component|package))\b/i;
/** A change of words, not of behaviour. */
const COSMETIC = /\b(?:typos?|misspel\w*|spelling|wording|grammar|copy change|rename)\b/i;
/** Work that needs finding out before changing: a regression, a race, a leak, something intermittent. */
const INVESTIGATION =
  /\b(?:regress\w*|started after|since (?:the )?(?:deploy|release|upgrade|v?\d)|intermittent\w*|flaky|randomly|race condition|thread[- ]safety|concurren\w+|memory leak|leaks?|deadlock|performance|latency|slow)\b/i;

/**
 * A coarse estimate for when the rules decide alone (the model reader judges complexity better): complex for
 * rewrites, architecture, large areas and model building; simple for one thing to read or change, or a bug
 * described with its error and where it happens; medium for investigations, lists of requirements and the rest.
 */
export function estimateComplexity(category: Category, { elements, cues }: RecognisedInstruction): Complexity {
  // A question is read, not built: its budget is the answers' own (limits.answers).
  if (category === 'question') return 'simple';
  if (ARCHITECTURAL.test(cues.lower) || BROAD_SCOPE.test(cues.head)) return 'complex';
  if (category === 'feature' && (LARGE_AREA.test(cues.head) || hasUnboundedScope(elements, cues))) return 'complex';
  if (category === 'data-analysis' && MODEL_BUILDING.test(cues.lower)) return 'complex';
  if (category === 'incident-triage' || INVESTIGATION.test(cues.lower)) return 'medium';
  const places = new Set([...cues.references.files, ...cues.references.directories].map((place) => place.replace(/:\d+(?::\d+)?$/, '')));
  if (category === 'code-review') return cues.references.directories.length > 0 ? 'medium' : 'simple';
  const problem = elements.observedProblem;
  const described = !!(problem?.error || (problem?.expected && problem.actual));
  if (category === 'bug-fixing' && described && (places.size > 0 || (problem?.reproduction?.length ?? 0) > 0)) return 'simple';
  if ((elements.requirements?.length ?? 0) >= 3 || places.size > 1) return 'medium';
  return places.size === 1 || COSMETIC.test(cues.lower) ? 'simple' : 'medium';
}
