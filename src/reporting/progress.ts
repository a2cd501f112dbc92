import { type EgressRefused, setupEgressLine } from '../verification/render-verification.js';

/**
 * What a run is doing, as its runners report it: a key and its parameters, never words. Each surface says it in its
 * own: a Slack thread in its language (`progress` of src/slack/strings/), the run page, the run log and `wrench run`
 * in English (`progressEn`). Repositories, branches, paths, commands, user mentions and error texts are parameters
 * and stay as they are.
 */
export type ProgressDetail =
  | { key: 'cloning'; repository: string; readOnly?: boolean }
  | { key: 'checkingOut'; branch: string }
  | { key: 'checkingOutHead'; number: number }
  | { key: 'readingPull'; number: number }
  | { key: 'preparingReadOnly'; repository: string }
  | { key: 'preparingBranch'; branch: string; base: string }
  | { key: 'installing'; command: string }
  | { key: 'installingNode'; version: string; source: string }
  | { key: 'refreshing'; command: string }
  | { key: 'dependenciesInPlace' }
  | { key: 'dependenciesRestored' }
  /** `exitCode` null: killed. `egress`: what the egress policy refused. */
  | { key: 'installFailed'; command: string; timedOut: boolean; exitCode: number | null; egress?: readonly EgressRefused[] }
  | { key: 'refreshFailed'; command: string; timedOut: boolean; exitCode: number | null }
  | { key: 'testsOnBase' }
  | { key: 'readingCode' }
  | { key: 'reviewingPull'; number: number }
  | { key: 'reviewingCode' }
  | { key: 'investigating' }
  | { key: 'readingIncident' }
  | { key: 'readingChanges'; branch: string; hours: number; before: 'incident' | 'now' }
  /** The agent's tool steps. `command` on one line, shortened. */
  | { key: 'running'; command: string }
  | { key: 'reading'; path: string }
  | { key: 'editing'; path: string }
  | { key: 'askingServer'; server: string; tool: string }
  | { key: 'askingRequester' }
  | { key: 'updatingPlan' }
  | { key: 'queryingMetrics'; query: string }
  | { key: 'listingMetrics'; mode: string; label?: string; match?: string }
  /** A tool that says nothing of its step: its name. */
  | { key: 'tool'; name: string }
  | { key: 'testsAfterChange' }
  | { key: 'testsAfterRevert' }
  | { key: 'testsAgain' }
  | { key: 'waitingForBaseline' }
  | { key: 'fixingBreakage' }
  | { key: 'regressionTestFails' }
  | { key: 'coverageOnBase'; command: string }
  | { key: 'coverageAfter' }
  | { key: 'downloading'; count: number }
  | { key: 'pushing'; branch: string }
  | { key: 'pushingDraft'; branch: string }
  | { key: 'keepingWork'; branch: string }
  /** `user`: a Slack mention, `<@U…>`. */
  | { key: 'askedQuestion'; user: string }
  | { key: 'nothingPushed' }
  | { key: 'cancelledBeforeStart' }
  /** A person stopped the run (`by`: who, as the cancel handlers name them, `<@U…>` …) during `stage`. */
  | { key: 'stoppedDuring'; by: string; stage: StopStage }
  /** `problem`: the error's own words. */
  | { key: 'retrying'; problem: string }
  | { key: 'waitingThread' }
  | { key: 'waitingGlobal' }
  | { key: 'waitingRepository' }
  | { key: 'waitingUser' }
  /** The worker's data dir has `freeMb` free, under the `needMb` a run needs to start (WRENCH_MIN_FREE_MB). */
  | { key: 'waitingDisk'; freeMb: number; needMb: number };

/** The stage a stopped run was in: setting up (clone, install), the agent's work, the checks, publishing. */
export type StopStage = 'setup' | 'work' | 'checks' | 'publishing';

export type ProgressKey = ProgressDetail['key'];
type ParamsOf<K extends ProgressKey> = Omit<Extract<ProgressDetail, { key: K }>, 'key'>;

/** A phrase for every key: fixed words, or a function of the key's parameters. A catalogue lacking a key does not compile. */
export type ProgressStrings = { [K in ProgressKey]: keyof ParamsOf<K> extends never ? string : (params: ParamsOf<K>) => string };

const code = (text: string) => `\`${text}\``;
const exit = (timedOut: boolean, exitCode: number | null) => (timedOut ? 'timed out' : `exited with code ${exitCode ?? 'none'}`);

/** The phrases in English: the run page, the run log and `wrench run` say these, and a thread whose catalogue has none. */
export const progressEn: ProgressStrings = {
  cloning: ({ repository, readOnly }) => `cloning ${repository}${readOnly ? ' (read-only)' : ''}`,
  checkingOut: ({ branch }) => `checking out ${branch}`,
  checkingOutHead: ({ number }) => `checking out the head of #${number} (read-only)`,
  readingPull: ({ number }) => `reading pull request #${number}`,
  preparingReadOnly: ({ repository }) => `preparing a read-only checkout of ${code(repository)}`,
  preparingBranch: ({ branch, base }) => `preparing a branch ${code(branch)} from ${code(base)}`,
  installing: ({ command }) => `installing dependencies (${code(command)})`,
  installingNode: ({ version, source }) => `installing Node.js ${version} (${source})`,
  refreshing: ({ command }) => `refreshing the restored dependencies (${code(command)})`,
  dependenciesInPlace: 'dependencies of the same lock files already in place',
  dependenciesRestored: 'dependencies restored from an earlier install of the same lock files',
  installFailed: ({ command, timedOut, exitCode, egress }) =>
    `could not install dependencies: ${code(command)} ${exit(timedOut, exitCode)}${egress?.length ? `. ${setupEgressLine(egress)}` : ''}`,
  refreshFailed: ({ command, timedOut, exitCode }) => `could not refresh the dependencies: ${code(command)} ${exit(timedOut, exitCode)}`,
  testsOnBase: 'running the tests on the base commit',
  readingCode: 'reading the code',
  reviewingPull: ({ number }) => `reviewing #${number}`,
  reviewingCode: 'reviewing the code',
  investigating: 'investigating the code (read-only, no network)',
  readingIncident: 'reading the incident, its alerts and log entries',
  readingChanges: ({ branch, hours, before }) =>
    `reading the changes on ${code(branch)} in the ${hours} h before ${before === 'incident' ? 'the incident' : 'now'}`,
  running: ({ command }) => `running ${code(command)}`,
  reading: ({ path }) => `reading ${path}`,
  editing: ({ path }) => `editing ${path}`,
  askingServer: ({ server, tool }) => `asking ${server} (${tool})`,
  askingRequester: 'asking the requester a question',
  updatingPlan: 'updating its plan',
  queryingMetrics: ({ query }) => `querying metrics ${code(query)}`,
  listingMetrics: ({ mode, label, match }) => `listing metric ${mode}${label ? ` ${label}` : ''}${match ? ` of ${code(match)}` : ''}`,
  tool: ({ name }) => name,
  testsAfterChange: 'running the tests after the change',
  testsAfterRevert: 'running the tests after the revert',
  testsAgain: 'running the tests again',
  waitingForBaseline: 'waiting for the tests on the base commit',
  fixingBreakage: 'fixing what the change broke',
  regressionTestFails: 'checking the regression test fails without the fix',
  coverageOnBase: ({ command }) => `measuring coverage on the base commit (${code(command)})`,
  coverageAfter: 'measuring coverage after the change',
  downloading: ({ count }) => `downloading ${count} attached file${count === 1 ? '' : 's'}`,
  pushing: ({ branch }) => `pushing ${branch}`,
  pushingDraft: ({ branch }) => `pushing ${code(branch)} and opening a draft pull request`,
  keepingWork: ({ branch }) => `keeping the work so far on ${branch}`,
  askedQuestion: ({ user }) => `asked ${user} a question`,
  nothingPushed: 'nothing was pushed',
  cancelledBeforeStart: 'cancelled before it started',
  stoppedDuring: ({ by, stage }) =>
    `stopped by ${by} during ${{ setup: 'setup (cloning and installing dependencies)', work: 'the work', checks: 'the checks', publishing: 'publishing' }[stage]}`,
  retrying: ({ problem }) => `retrying shortly after a temporary problem: ${problem}`,
  waitingThread: 'waiting for the run already going in this thread',
  waitingGlobal: 'waiting for a free slot (all workers are busy)',
  waitingRepository: 'waiting for other runs on this repository to finish',
  waitingUser: 'waiting for your other runs to finish',
  waitingDisk: ({ freeMb, needMb }) => `waiting for disk space on the worker (${freeMb} MB free, ${needMb} MB needed to start)`,
};

/** `detail` in `strings`' words (English by default). */
export function renderProgress(detail: ProgressDetail, strings: ProgressStrings = progressEn): string {
  const phrase = strings[detail.key] as string | ((params: ProgressDetail) => string);
  return typeof phrase === 'string' ? phrase : phrase(detail);
}
