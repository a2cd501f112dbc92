import { answerEn, type AnswerStrings } from '../../answers/answer-strings.js';
import { type ScheduleStrings, schedulesEn } from '../../schedules/schedule-strings.js';
import { errorEn, type ErrorStrings } from '../../error-words.js';
import { analysisEn, type AnalysisStrings } from '../../analysis/analysis-strings.js';
import { type ImageStrings, imagesEn } from '../../inputs/image-strings.js';
import { clarifyingEn, type ClarifyingStrings } from '../../instruction/clarifying-strings.js';
import { progressEn, type ProgressStrings } from '../../reporting/progress.js';
import { reportEn, type ReportStrings } from '../../reporting/report-strings.js';
import { reviewEn, type ReviewStrings } from '../../review/review-strings.js';
import {
  type CoverageStrings,
  coverageEn,
  type RegressionStrings,
  regressionEn,
  type VerificationStrings,
  verificationEn,
} from '../../verification/verification-strings.js';

/** A pull request in a note: `link(label)` makes the words naming it a link to it. */
export interface PullLink {
  number: number;
  link: (label: string) => string;
}

/** The GitHub events a thread can be told Wrench could not act on, as English names them. */
const EVENT_WORDS: Record<string, string> = {
  comment: 'comment',
  'review-comment': 'review comment',
  review: 'review',
  'check-failed': 'failing check',
  'check-passed': 'passing check',
  'status-failed': 'failed commit status',
  closed: 'closing of the pull request',
};

/**
 * What Wrench says around a task in a thread, in English: the source every other catalogue translates, and the
 * fallback for any string a catalogue lacks. Texts are Slack mrkdwn; `<@U…>` mentions and dates are filled in.
 */
export const en = {
  categories: {
    testing: 'Testing',
    'data-analysis': 'Data analysis',
    'web-scraping': 'Web scraping',
    'code-review': 'Code review',
    'bug-fixing': 'Bug fix',
    feature: 'Feature',
    refactoring: 'Refactoring',
    'incident-triage': 'Incident triage',
    question: 'Question',
  } as Record<string, string>,
  complexity: { simple: 'simple', medium: 'medium', complex: 'complex' } as Record<string, string>,
  taskOn: (category: string, repository: string, status: string) => `${category} task on ${repository}: ${status}`,
  where: 'Where:',
  constraints: 'Constraints:',
  doneWhen: 'Done when:',
  cancel: 'Cancel',
  queued: (position?: number) => `:hourglass_flowing_sand: Queued${position ? ` (position ${position})` : ''}`,
  queuedBehindThread: ':hourglass_flowing_sand: Queued behind the run already going in this thread',
  // The line under the thread between messages (Slack's assistant status: it shows the app's name before it, then
  // rotates the loading steps).
  statusLine: {
    reading: 'is reading your request…',
    readingSteps: (repository: string) => ['Reading your request…', `Looking at ${repository}…`],
    waitingForWorker: 'is waiting for a worker…',
    /** What a queued run waits for: `detail` is one of `progress.waiting…` in the thread's words. */
    waitingOn: (detail: string) => `is ${detail}…`,
  },
  addDetails: 'Add details',
  startAnyway: 'Start anyway',
  needMore: 'Before I start, I need a little more so I do not guess:',
  answerHere: 'Answer here in the thread, or press *Add details*.',
  // The card's buttons pressed: what the card then says, and the notes only the presser sees.
  startingAnyway: (user: string) => `Starting anyway at <@${user}>'s request.`,
  enoughToStart: 'Thanks, that is enough to start.',
  requestGone: 'This request has already started or expired.',
  requestBusy: 'Someone is starting this request or adding to it right now. If I ask again, answer the new card.',
  replyWhileStarting:
    'This request was already being started when your message came in, so your message was not added to it. Once it is running, reply here to pass your message to the agent, or mention me to make it a follow-up.',
  // The "Add details" modal's own words (its title at most 24 characters).
  modal: { title: 'Add details', submit: 'Start', close: 'Cancel', instruction: 'Your instruction' },
  // The rules' questions for what an instruction is missing (the model asks in the requester's language itself).
  clarifying: clarifyingEn,
  onlyRequesterAddsDetails: 'Only the person who asked, or an approver, can add details here.',
  onlyRequesterStarts: 'Only the person who asked, or an approver, can start this.',
  // A channel with several repositories, when the request does not tell which: one button per repository.
  whichRepository:
    'This channel works on several repositories, and I cannot tell which one this request is for. Press the one to work on, or reply here naming it.',
  repositoryChosen: (user: string, repository: string) => `<@${user}> chose *${repository}*: starting there.`,
  onlyRequesterChoosesRepository: 'Only the person who asked, or an approver, can choose the repository.',
  nameTheRepository: (repositories: string) =>
    `I still cannot tell which repository this is for: press one of the buttons above, or name one of ${repositories} in your reply.`,
  tooLarge: (step: string) =>
    `That is too large to do well in one go, so I will not start it as it is. A scoped first step I could take:\n> ${step}\nMention me with that (or your own first step) in this thread, or press *Start anyway*.`,
  questionIntro: (requester: string) => `<@${requester}> I have a question before I go on:`,
  decideYourself: 'Decide yourself',
  deadline: (hasButtons: boolean, date: string) =>
    `${hasButtons ? 'Press a button or reply' : 'Reply'} in this thread to answer, or let me decide; the run is paused until then. Without an answer by ${date} I finish with what I have.`,
  asked: (requester: string) => `<@${requester}> I asked:`,
  answered: (by: string, answer: string) => `<@${by}> answered: ${answer}`,
  cancelledBy: (user: string) => `_Cancelled by <@${user}> before an answer came._`,
  noAnswerInTime: '_No answer came in time, so I finish with what I have._',
  reminder: (requester: string, question: string, date: string) =>
    `<@${requester}> A reminder: I am still waiting for your answer to my question above (${question}). Without an answer by ${date} I finish with what I have.`,
  dateAt: 'at',
  // A question that settled before an answer came, and answers that came too late or from someone else (only they see these).
  questionStale: 'That question was already answered, or it has expired.',
  /** To someone pressing a question's button after it was settled: what settled it (an answer and who gave it, the timeout, a cancel). */
  questionSettled: (outcome: string) => `That question is settled already: ${outcome}`,
  questionNotYours: (requester: string) =>
    `Thanks! I asked <@${requester}> this question, so I wait for their answer (or an approver's); your message was not taken as the answer.`,
  /** `question` quoted as asked, `date` when it timed out, `mention` how to mention Wrench. */
  lateAnswer: (question: string, date: string, mention: string) =>
    `My question ("${question}") timed out ${date} with no answer, so that run ended with what it had, and your reply was not taken as its answer. To go on, mention me in this thread with your answer (${mention} followed by it): that starts a follow-up run that continues this thread's work.`,
  questionExpired: ':warning: This run waited for an answer to its question, but the stored conversation has expired, so it cannot go on.',
  questionExpiredNext: 'Mention me in this thread to start again; any work pushed before the question is on the branch.',
  phases: {
    queued: ':hourglass_flowing_sand: Queued',
    preparing: ':package: Preparing the workspace',
    working: ':hammer_and_wrench: Working',
    waiting: ':question: Waiting for an answer',
    verifying: ':test_tube: Verifying',
    publishing: ':outbox_tray: Opening the pull request',
    done: ':white_check_mark: Done',
    failed: ':x: Failed',
    cancelled: ':no_entry_sign: Cancelled',
  } as Record<string, string>,
  after: (elapsed: string) => `after ${elapsed}`,
  usually: (elapsed: string, typical: string) => `${elapsed} (usually ${typical})`,
  seeEveryStep: 'see every step',
  // The final reply: its headline (`pull` is "PR #3: title" linked, `counts` " (2 files, +12 −4)" or ""), its foot.
  opened: (draft: boolean, pull: string, counts: string) => `${draft ? ':warning:' : ':white_check_mark:'} Opened ${draft ? 'draft ' : ''}${pull}${counts}`,
  updated: (draft: boolean, pull: string, counts: string) => `:arrows_counterclockwise: Updated ${draft ? 'draft ' : ''}${pull}${counts}`,
  answeredNoChange: ':speech_balloon: No files changed, so no pull request. My answer:',
  stoppedWithPull: (draft: boolean, pull: string, counts: string) => `:warning: Stopped early; the work so far is in ${draft ? 'draft ' : ''}${pull}${counts}`,
  stoppedNoChanges: ':warning: Stopped early without changes.',
  runFailed: ':x: The run failed.',
  pausedOnQuestion: ':question: Paused until my question above is answered.',
  everyStepOfThisRun: 'Every step of this run',
  // Said with the outcome and the link when Slack refuses a final reply as written (too long, blocks it will not take).
  replyRefused: ':information_source: Slack would not take the whole reply, so here is its short form.',
  filesFromThisRun: (names: string) => `:paperclip: Files from this run: ${names}`,
  // A refactoring's own words: why it did not start, and why its pull request is a draft. `test` in backticks.
  refactoring: {
    suiteFailsHeadline: ':warning: The test suite fails on the base commit, so I did not start the refactoring.',
    suiteFailsAnswer: (test: string, failures: string) =>
      `A refactoring must keep a passing suite passing, and ${test} already fails before any change: ${failures}. Fix those tests first, or mention me again saying to refactor even though the tests fail.`,
    timedOut: 'it timed out',
    failing: (count: number, names: string) => `${count} failing, including ${names}`,
    exitCode: (code: string) => `exit code ${code}`,
    draftSuiteFails: 'A refactoring must leave the full suite passing, and it fails after this change.',
    movedAndRenamed: 'Moved and renamed',
    moved: (what: string, from: string, to: string) => `- Moved ${what}: ${from} → ${to}`,
    renamed: (kind: string | undefined, from: string, to: string) => `- Renamed ${kind ? `${kind} ` : ''}${from} → ${to}`,
    fullSuite: 'Full suite',
    /** `before`/`after`: passes, fails or was not run (undefined). */
    suiteBeforeAfter: (command: string, before: boolean | undefined, after: boolean) =>
      `${command} ${before === undefined ? 'was not run' : before ? 'passes' : 'fails'} on the base commit and ${after ? 'passes' : 'fails'} after the refactoring.`,
  },
  // What the run is doing (the runners report it as a typed value, src/reporting/progress.ts; the run page and `wrench
  // run` say it in these English words). Commands, repositories, branches and paths come as they are.
  progress: progressEn,
  // A streamed run's plan (its title says how to stop it while the run goes on; the handler takes only "stop").
  plan: {
    stages: {
      reading: 'Read the request',
      preparing: 'Prepare the workspace',
      working: 'Work on the change',
      answering: 'Read the code for the answer',
      edits: 'Edit files (the agent)',
      'agent-tests': 'Run the tests (the agent)',
      verifying: 'Verify: run the tests and checks',
      publishing: 'Publish: open or update the pull request',
      question: 'Wait for the answer to my question',
    },
    workingOn: (repository: string) => `Working on ${repository}`,
    /** The title of a run queued, paused or ended: its state, then the repository or what it waits for. */
    state: (state: 'queued' | 'waiting' | 'done' | 'failed' | 'cancelled', what: string) =>
      `${{ queued: 'Queued', waiting: 'Paused: waiting for an answer', done: 'Done', failed: 'Failed', cancelled: 'Cancelled' }[state]}: ${what}`,
    cancelled: 'Cancelled',
    stopHint: 'to stop it, mention me with "stop"',
    agentStep: (step: string) => `${step} (the agent's plan)`,
    droppedStep: "dropped from the agent's plan",
    notMarkedDone: 'not marked done by the agent',
    editedFiles: (count: number, files: string) => `${count} ${count === 1 ? 'file' : 'files'}: ${files}`,
    testRuns: (count: number, command: string) => `${count} ${count === 1 ? 'run' : 'runs'}, the last: ${command}`,
    everyStepOnPage: 'Every step on the run page',
    couldNotQueue: 'the run could not be queued',
    /** What a run just queued waits for, in its title ("Queued: …"). */
    behindThreadRun: 'behind the run already going in this thread',
    queuePosition: (position: number) => `position ${position} in the queue`,
    restOnPage: 'The rest is on the run page.',
  },
  // The status card's detail when the run has ended.
  stoppedEarlyDetail: 'stopped early',
  draftDetail: ' (draft)',
  // The report under the headline (shared with the pull request body and the terminal, which stay English).
  report: reportEn,
  // A review's headline and sections (the review posted on GitHub stays English).
  answer: answerEn,
  review: reviewEn,
  // Wrench's checks in the report (the pull request body's stay English).
  verification: verificationEn,
  // A category's own sections of the report (the pull request body's stay English): a bug fix's regression test, a
  // testing run's coverage, a data analysis's main result.
  regression: regressionEn,
  coverage: coverageEn,
  analysis: analysisEn,
  // Images attached to a request that did not reach the agent.
  images: imagesEn,
  schedules: schedulesEn as ScheduleStrings,
  // Why a run stopped early (under "Stopped early"): a cancel or a restart, and what became of its work. `branch` comes
  // in backticks; `via` says where a person cancelled other than in the thread.
  stop: {
    cancelledBy: (user: string, via?: 'page' | 'home') =>
      `Cancelled by ${user}${via === 'page' ? ' on the run page' : via === 'home' ? ' from App Home' : ''}.`,
    cancelled: 'Cancelled.',
    /** A cancel while the run waited for an answer to its question; `user` a Slack mention. */
    cancelledWhileWaiting: (user: string) => `Cancelled by ${user} while waiting for an answer.`,
    /** Between the sentences of a stop reason (none in Japanese). */
    gap: ' ',
    restarting: 'Wrench was restarting, so this run stopped.',
    toGoOn: 'To go on, mention me in this thread to continue.',
    /** The question timed out; `waited` is how long it waited ("7s", "24h"). */
    noAnswer: (waited: string) => `Nobody answered my question within ${waited}, so I stopped there.`,
    nothingPushedBranch: (branch: string) => `Nothing was pushed; ${branch} is as it was before this run.`,
    noBranchYet: 'Nothing had changed yet, so there is no branch.',
    nothingPushedPull: (branch: string) =>
      `Nothing was pushed: ${branch} and its pull request are as they were before this run, and its unfinished changes were discarded.`,
    keptInPull: (draft: boolean, number: number, branch: string) =>
      `The work done until then is in ${draft ? 'draft ' : ''}pull request #${number} (branch ${branch}).`,
    keptOnBranch: (branch: string) => `The work done until then is on branch ${branch}.`,
    stepLimit: (steps: number) => `The step limit (${steps} ${steps === 1 ? 'step' : 'steps'}) was reached.`,
    timeLimit: (minutes: number) => `The time budget (${minutes} min) ran out.`,
    costLimit: (cap: string, spent: string) => `The cost cap ($${cap}) was reached ($${spent} spent).`,
    tokenLimit: (tokens: number) => `The token budget (${tokens} tokens) was used up.`,
    refused: 'The model declined to continue with this task.',
    contextExhausted: 'The conversation no longer fits the model context window.',
    /** The model's API failed after retries (`status` its HTTP status when it gave one); `text` its own words. */
    modelApiFailed: (status: number | undefined, text: string) => `The model API failed${status ? ` (HTTP ${status})` : ''} after retries: ${text}`,
    agentFailed: (text: string) => `The agent failed: ${text}`,
  },
  /** The answer of a run that changed no file when the agent said nothing of its own. */
  finishedNoChange: 'I finished without changing any file.',
  // Why a pull request is a draft. `paths` come in backticks.
  draft: {
    regressed: 'Checks that passed before this change now fail (see Verification); an agent round to fix them did not succeed.',
    protectedPaths: (paths: string) => `This change touches protected paths (${paths}); an approver must review and clear it before it is marked ready.`,
    /** `runtimes`: the report's runtime lines that say so (in English, as measured). */
    runtimeMismatch: (runtimes: string) =>
      `The checks could not run on the runtime the repository asks for, so they do not show what its CI would: ${runtimes}`,
  },
  // A run that failed: the reason (its error's own words, `text`, stay as they are) and what to do.
  failure: {
    /** A run whose worker stopped (killed, crashed) while running it `times` times: BullMQ ended it without running it again. */
    interrupted: (times: number) =>
      `the worker running it stopped ${times} times while it was under way (killed or crashed), so it was not started again and has no result. Mention me to ask again; anything it pushed before is on its branch.`,
    runFailed: (message: string) => `The run failed: ${message}`,
    githubRefused: (status: number, text: string) =>
      `GitHub refused the request (HTTP ${status}): ${text}. Check that GITHUB_TOKEN can push and open pull requests on this repository.`,
    githubNotFound: "GitHub could not find the repository or branch (HTTP 404). Check the repository name and the token's access.",
    githubRejected: (text: string) => `GitHub rejected the pull request (HTTP 422): ${text}.`,
    githubFailed: (status: number, text: string) => `GitHub failed (HTTP ${status}): ${text}. Try again in a few minutes.`,
    unexpected: (text: string) => `The run failed unexpectedly: ${text}. Try again; if it keeps failing, an administrator can check the logs for this job.`,
  },
  // What a typed error says (a push refused for a secret, a missing branch): src/error-words.ts. Branches, paths,
  // ids, hosts and commands as they are.
  errors: errorEn,
  // Why a task or a triage could not be queued (`error` the validation's own words), and what to do.
  notQueued: {
    task: 'task',
    triage: 'triage',
    invalidJob: (what: string, error: string) =>
      `:x: I could not queue this ${what}: ${error}. That is a bug in Wrench, not something you did; mentioning me again will not help. Please tell an administrator (the details are in Wrench's log).`,
    queueUnavailable: (what: string) =>
      `:x: I could not queue this ${what} because my job queue (Redis) is unavailable. Mention me again in a minute; if it keeps failing, ask an administrator to run \`wrench doctor\`.`,
    unexpected: (what: string) =>
      `:x: I could not queue this ${what} because of an unexpected error. Mention me again in a minute; if it keeps failing, ask an administrator to look at Wrench's log.`,
  },
  // Steering a running task, and cancelling one.
  steered:
    'Passed to the running agent: it reads this before its next model call, without starting over. If the run ends first, mention me here to make it a follow-up.',
  steeredFromPage: (user: string) => `<@${user}> wrote to the running agent from the run page:`,
  steeringUnread: (count: number) =>
    `${count === 1 ? 'This message' : 'These messages'} reached the run after its last step, so it did not read ${count === 1 ? 'it' : 'them'}:`,
  steeringWrote: (name: string) => `${name} wrote:`,
  /** Who wrote to the running agent, when Slack does not give their name. */
  personInThread: 'a person in the thread',
  steeringFollowUp: 'Mention me here with what you still want and I will do it as a follow-up.',
  nothingRunning: 'Nothing is running in this thread.',
  /** A run picked up again after the worker that had it died. */
  restartedAfterInterruption: ':arrows_counterclockwise: Wrench restarted after an interruption: this run starts again from the beginning.',
  /** The same, when an earlier attempt had pushed its branch: the new attempt goes on from it. */
  restartedFromBranch: (branch: string) =>
    `:arrows_counterclockwise: Wrench restarted after an interruption: this run goes on from the commits its earlier attempt pushed to \`${branch}\`.`,
  // A triage a person asked for in the thread ("@wrench triage: …"), in their language; `repository` in backticks.
  // An incident's own triage has nobody's language and speaks English.
  triage: {
    queued: (repository: string) => `:mag: Triage queued: I will investigate ${repository} read-only (recent changes and the code) and report here.`,
    working: (detail: string) => `:mag: Triage: ${detail}`,
    investigating: 'investigating',
    finished: (elapsed: string) => `:white_check_mark: Triage finished in ${elapsed}`,
    failedAfter: (elapsed: string) => `:x: Triage failed after ${elapsed}`,
    cancelled: ':no_entry_sign: Triage cancelled',
    failed: (message: string) => `:x: Triage failed. ${message}`,
    // The report: headings mark whose words follow (the agent's as they are); `branch` and shas in backticks or links.
    reportOf: (subject: string) => `:mag: *Triage of ${subject}*`,
    reportSummary: (subject: string, verdict: string) => `Triage of ${subject}: ${verdict}`,
    verdict: "*Verdict* (the agent's reading):",
    whatIsGoingOn: "*What is going on* (the agent's reading)",
    noGoodLead: '*No good lead.* I did not find evidence pointing at a cause, so I am not guessing one.',
    hypothesis: "*Hypothesis* (the agent's; no supporting evidence found, low confidence)",
    likelyCause: (confidence: string) => `*Likely cause* (the agent's reading, confidence: *${confidence}*)`,
    confidence: { low: 'low', medium: 'medium', high: 'high' } as Record<string, string>,
    evidence: "*Evidence* (as the agent cites it; the links are Wrench's)",
    suspectCommits: (branch: string) => `*Suspect commits* (most likely first, on ${branch}; the reasons are the agent's)`,
    notOnBaseBranch: '_(not found on the base branch)_',
    ruledOut: '*Ruled out* (by the agent)',
    nextSteps: "*Next steps* (the agent's suggestions)",
    couldNotRead: '*Could not read* (the report rests on the other evidence)',
    openFixPr: 'Open fix PR',
    revert: (sha: string) => `Revert ${sha}`,
    revertQuestion: (sha: string) => `Revert ${sha}?`,
    revertExplained: (sha: string, branch: string) =>
      `Wrench will revert ${sha} on a new branch of ${branch}, run the tests and open a draft pull request. Nothing is merged.`,
    openRevertPr: 'Open revert PR',
    dismiss: 'Dismiss',
    approversOnly: 'Only approvers can use these buttons.',
    actions: 'Triage actions',
    dismissedBy: (user: string) => `:no_entry_sign: Dismissed by <@${user}>`,
    // Only the person who pressed a button sees these. `action` is the button's label, `sha` in backticks.
    approversOnlyAction: (action: string) =>
      `Only approvers can use "${action}" on a triage. Ask someone listed under \`access.approvers\` in wrench.config.yml.`,
    revertAlready: (sha: string) => `A revert of ${sha} was already requested from this triage.`,
    fixAlready: 'A fix run was already started from this triage; follow it in the thread.',
    // A revert's status line in the triage's thread, edited in place to its end. `sha`, `base` and `branch` in
    // backticks, `user` a mention; `what` a progress phrase, `why` and `message` an error's words, `verdict` the checks'.
    reverting: (sha: string, base: string, user: string) => `:rewind: Reverting ${sha} on ${base} at ${user}'s request: preparing a branch`,
    revertDoing: (sha: string, what: string) => `:rewind: Reverting ${sha}: ${what}`,
    revertWorking: 'working',
    revertFailed: (sha: string, message: string) => `:x: Reverting ${sha} failed: ${message}`,
    revertOpened: (number: number, sha: string, url: string, verdict: string) => `:rewind: Opened draft PR #${number} reverting ${sha}: ${url}\n${verdict}`,
    revertNoChecks: 'No checks were run after the revert.',
    revertOpenAlready: (sha: string, number: number, url: string) =>
      `:information_source: ${sha} is already being reverted in PR #${number}: ${url}. Nothing new was pushed.`,
    revertNotOnBase: (sha: string, base: string) =>
      `:warning: ${sha} is not on ${base} any more (force-pushed or never merged), so there is nothing to revert. Nothing was pushed.`,
    revertConflict: (sha: string, why: string) => `:warning: I could not revert ${sha} cleanly: ${why} Nothing was pushed.`,
    revertBranchExists: (branch: string) =>
      `:information_source: A branch ${branch} already exists without an open pull request. Delete it (or open a PR from it) and press Revert again. Nothing was pushed.`,
  },
  // Replies before any work: help for a mention without a task, a channel with no repository, a repository not
  // allowed, and (only they see it) a person not allowed to start work. `me` mentions Wrench; the example's paths and
  // commands, the channel id and the config keys stay as they are.
  help: (me: string) =>
    [
      `Hi! Mention ${me} with a development task and I will work on this channel's repository and open a pull request.`,
      `For example: \`${me} add tests for formatBytes in src/lib/format.ts covering 0, 1023 and 1024 bytes; npm test must pass\``,
      `Other things I do: \`${me} review PR #42\`, \`${me} fix the TypeError in src/cart.ts:88\`, \`${me} triage: checkout returns 500 since 14:05\`.`,
    ].join('\n'),
  noRepository: (config: string) =>
    `This channel is not linked to a repository yet, so I do not know where to work.\nName one in your message (for example \`in acme/web\`), or link the channel in \`wrench.config.yml\`:\n${config}`,
  repositoryNotAllowed: (repository: string) =>
    `I am not allowed to work on ${repository}.\nAn administrator can allow it by adding it (or a glob such as \`owner/*\`) to \`repos:\` in \`wrench.config.yml\`.`,
  sharedChannel:
    'Wrench does not take work in Slack Connect channels here. An administrator can allow it with `access.sharedChannels: true` in `wrench.config.yml`.',
  /** `length` and `max` as figures ("21,000"). */
  instructionTooLong: (length: string, max: string) =>
    `That instruction is ${length} characters long; I take at most ${max}. Shorten it, or attach long material (logs, data) as a file and refer to it.`,
  takingFailed:
    ':x: Something went wrong while I was taking this request, so nothing was started. Mention me again in a minute; if it keeps happening, an administrator can run `wrench doctor`.',
  /** A stored mention whose handling failed every time it was tried (`attempts` times). */
  /** Redis lost its data (restarted empty) after this mention was acknowledged; Wrench had it on its own disk and takes it again. */
  redisLostRetaken:
    ":warning: Wrench's Redis lost its data (it restarted empty) after I took this request, so its place in the queue was lost. I had kept a copy of it and am taking it again from the start; nothing needs doing on your side.",
  /** Redis lost its data while this request's run was under way. */
  redisLostWhileRunning:
    ":warning: Wrench's Redis lost its data (it restarted empty) while this request was running. Its result may still arrive here; if it has not in a few minutes, please ask again.",
  /** The run watchdog: a run started `minutes` ago, past its `limit`-minute time limit, ended without its last word reaching the thread. */
  runSilentEnded: (minutes: number, limit: number) =>
    `:warning: This run started ${minutes} min ago and has ended, but no result or error reached this thread (its time limit is ${limit} min). Something went wrong on Wrench's side; please ask again.`,
  /** The run watchdog: a run started `minutes` ago is still marked running past its `limit`-minute time limit, with no last word yet. */
  runSilentRunning: (minutes: number, limit: number) =>
    `:warning: This run started ${minutes} min ago, past its ${limit}-min time limit, and has sent no result yet. It may be stuck: its result may still arrive here; if it does not, stop it and ask again.`,
  mentionDropped: (attempts: number) =>
    `:x: I could not take this request: handling it failed ${attempts} times. Nothing was started; mention me again to retry.`,
  notAuthorized:
    'You are not on the list of people who can start work with Wrench here. Ask an administrator to add your Slack user id to `access.users` in `wrench.config.yml`.',
  cancelNotAllowed: 'Only the person who asked for this run, or an approver, can cancel it.',
  // Wrench's notes in a thread about GitHub activity on its pull request (after "*GitHub* · "). `pull.link(label)` links
  // the words naming the pull request (number `pull.number`); logins (`by`, `author`), `checks`, `base`, `branch`,
  // `context` and `place` come escaped and formatted (in backticks), shas as they are; people's words are quoted after.
  github: {
    closed: (pull: PullLink, by: string, merged: boolean) =>
      `${pull.link(`Pull request #${pull.number}`)} ${merged ? `was merged by @${by}` : `was closed without merging by @${by}`}. This thread's work is done; mention me here to start something new (it gets a new branch and pull request).${merged ? '' : ' If the pull request is reopened, this thread continues it.'}`,
    reopenedBusy: (pull: PullLink, by: string) =>
      `${pull.link(`Pull request #${pull.number}`)} was reopened by @${by}, but this thread has started other work since, so it does not continue that pull request here. Comment on the pull request mentioning me, or start a new thread, to work on it.`,
    reopened: (pull: PullLink, by: string, branch?: string) =>
      `${pull.link(`Pull request #${pull.number}`)} was reopened by @${by}: this thread continues it${branch ? ` on ${branch}` : ''}. Mention me here, or comment on the pull request, to go on.`,
    /** A comment mirrored in the thread (its body follows, quoted); `place` the file and lines of a review comment. */
    commentLead: (kind: 'review' | 'review-comment' | 'comment', author: string, pull: PullLink, place?: string) =>
      `@${author} ${{ review: 'requested changes', 'review-comment': 'commented', comment: 'wrote' }[kind]} on ${pull.link(`pull request #${pull.number}`)}${place ? ` on ${place}` : ''}:`,
    /** A review mirrored in the thread (its body and a line per comment follow). */
    reviewLead: (author: string, pull: PullLink, changesRequested: boolean, count: number) =>
      `@${author} ${changesRequested ? 'requested changes' : 'reviewed'} on ${pull.link(`pull request #${pull.number}`)} with ${count} comment${count === 1 ? '' : 's'}:`,
    /** Where a review comment is: `path` in backticks, then its line or lines (none when GitHub gives none). */
    place: (path: string, line: number | null, startLine: number | null) =>
      line === null ? path : startLine !== null && startLine !== line ? `${path} lines ${startLine}–${line}` : `${path} line ${line}`,
    continuing: (branch?: string) => `I'm continuing on ${branch ?? '`the branch`'} with that.`,
    /** `count` checks failed that fail on the base branch too. */
    baseFails: (checks: string, _count: number, pull: PullLink, base: string, baseSha: string) =>
      `${checks} failed on ${pull.link(`pull request #${pull.number}`)}, but fails on ${base} (${baseSha}) too, so this change did not cause it; I'm not starting a fix round. Fix it on ${base} first, or mention me here with what to do.`,
    /** Also said on the pull request, in English. */
    fixLimit: (checks: string, count: number, number: number, done: number) =>
      `${checks} still fail${count > 1 ? '' : 's'} on pull request #${number} after ${done} fix round${done === 1 ? '' : 's'} (the limit, \`github.maxFixRounds\`), so I'm not trying again; it needs a person now.`,
    failingRun: 'The failing run.',
    noEvidence: (checks: string, _count: number, pull: PullLink, head: string) =>
      `${checks} failed on ${pull.link(`pull request #${pull.number}`)} (head ${head}), but I could read nothing about why (no log, no output, no annotations), so I'm not spending a fix round on a guess. Open the failing check and tell me here what to fix.`,
    /** A fix round starts; `earlier` when `earlier.count` of these checks still fail after the round before. */
    fixRound: (checks: string, _count: number, pull: PullLink, head: string, round: number, of: number, earlier?: { round: number; count: number }) =>
      `${checks}${earlier ? ` still fail${earlier.count > 1 ? '' : 's'} after fix round ${earlier.round}` : ' failed'} on ${pull.link(`pull request #${pull.number}`)} (head ${head}). Fix round ${round} of ${of}: I'm looking at what the CI reported.`,
    passed: (checks: string, count: number, pull: PullLink, head: string, round: number) =>
      `${checks} pass${count > 1 ? '' : 'es'} on ${pull.link(`pull request #${pull.number}`)} (head ${head}) after fix round ${round}.`,
    /** A commit status failed: `description` what it says (escaped), `details(label)` links its details when it has some. */
    statusFailed: (context: string, pull: PullLink, head: string, description?: string, details?: (label: string) => string) =>
      `${context} reported failure on ${pull.link(`pull request #${pull.number}`)} (head ${head})${description ? `: “${description}”` : ''}.${details ? ` Details: ${details('the CI run')}.` : ''} I can't read that CI's logs from here, so I'm not starting a fix round on a guess: paste the failing output here, or tell me what to fix.`,
    /** An event Wrench failed to act on (`kind` the event's, `error` what went wrong, as it is). */
    couldNotAct: (kind: string, by: string | undefined, pull: PullLink, error: string) =>
      `I could not act on the ${EVENT_WORDS[kind] ?? 'event'}${by ? ` by @${by}` : ''} on ${pull.link(`pull request #${pull.number}`)}: ${error}. Once that is fixed, redeliver it from the GitHub App's settings (Advanced → Recent Deliveries), or say here what to do.`,
  },
};

export type ThreadStrings = typeof en;

/** A translation: any string may be missing (English says it then), the report's and the checks' strings one by one. */
export type Catalogue = Partial<
  Omit<
    ThreadStrings,
    | 'report'
    | 'verification'
    | 'stop'
    | 'failure'
    | 'review'
    | 'answer'
    | 'draft'
    | 'progress'
    | 'errors'
    | 'plan'
    | 'refactoring'
    | 'regression'
    | 'coverage'
    | 'analysis'
    | 'images'
    | 'statusLine'
    | 'notQueued'
    | 'triage'
    | 'modal'
    | 'clarifying'
    | 'github'
  >
> & {
  modal?: Partial<ThreadStrings['modal']>;
  github?: Partial<ThreadStrings['github']>;
  clarifying?: Partial<ClarifyingStrings>;
  statusLine?: Partial<ThreadStrings['statusLine']>;
  notQueued?: Partial<ThreadStrings['notQueued']>;
  triage?: Partial<ThreadStrings['triage']>;
  /** Every phrase or none (then English says them all): a phrase missing from a catalogue does not compile. */
  progress?: ProgressStrings;
  /** Every phrase or none, as `progress`. */
  errors?: ErrorStrings;
  refactoring?: Partial<ThreadStrings['refactoring']>;
  plan?: Partial<Omit<ThreadStrings['plan'], 'stages'>> & { stages?: Partial<ThreadStrings['plan']['stages']> };
  stop?: Partial<ThreadStrings['stop']>;
  failure?: Partial<ThreadStrings['failure']>;
  draft?: Partial<ThreadStrings['draft']>;
  review?: Partial<ReviewStrings>;
  /** Every phrase or none, as `progress`. */
  answer?: AnswerStrings;
  report?: Partial<ReportStrings>;
  verification?: Partial<VerificationStrings>;
  regression?: Partial<RegressionStrings>;
  coverage?: Partial<CoverageStrings>;
  analysis?: Partial<AnalysisStrings>;
  images?: Partial<ImageStrings>;
  /** Every phrase or none, as `progress`. */
  schedules?: ScheduleStrings;
};
