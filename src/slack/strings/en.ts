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
  } as Record<string, string>,
  complexity: { simple: 'simple', medium: 'medium', complex: 'complex' } as Record<string, string>,
  taskOn: (category: string, repository: string, status: string) => `${category} task on ${repository}: ${status}`,
  where: 'Where:',
  constraints: 'Constraints:',
  doneWhen: 'Done when:',
  cancel: 'Cancel',
  queued: (position?: number) => `:hourglass_flowing_sand: Queued${position ? ` (position ${position})` : ''}`,
  queuedBehindThread: ':hourglass_flowing_sand: Queued behind the run already going in this thread',
  addDetails: 'Add details',
  startAnyway: 'Start anyway',
  needMore: 'Before I start, I need a little more so I do not guess:',
  answerHere: 'Answer here in the thread, or press *Add details*.',
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
};

export type ThreadStrings = typeof en;
