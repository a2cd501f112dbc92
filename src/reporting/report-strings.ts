/**
 * Wrench's own words in a run's report, in English: the source the thread catalogues (src/slack/strings/) translate
 * and the fallback for any string they lack. Only Wrench's fixed words are here; commands, counts Wrench read from
 * test output, paths and the agent's own text are filled in as they are. `counts` arrives ready: " (3 passed)" or "".
 */
export const reportEn = {
  outcomeSetupFailed: (setup: string) =>
    `Outcome: Wrench could not install the dependencies (\`${setup}\` failed), so its checks do not show whether the change works.`,
  outcomeRegressed: (command: string, fails: boolean, counts: string) =>
    `Outcome: the change broke checks that passed before; \`${command}\` ${fails ? 'fails' : 'passes'}${counts}.`,
  outcomeFails: (command: string, counts: string, asBefore: boolean) =>
    `Outcome: \`${command}\` fails after the change${counts}${asBefore ? ', as it did before' : ''}.`,
  outcomePasses: (command: string, counts: string) => `Outcome: \`${command}\` passes after the change${counts}.`,
  /** How every outcome line above begins (the streamed reply puts that line first). */
  outcomePrefix: 'Outcome:',
  summary: 'Summary',
  summaryAccount: "Summary (the agent's account)",
  summaryContradicted: "Summary (the agent's claim, contradicted by Wrench's checks)",
  verification: 'Verification (run by Wrench)',
  draftReason: 'Why this is a draft',
  stoppedEarly: 'Stopped early',
  changes: 'Changes (from the committed diff)',
  claimedNotChanged: 'Claimed by the agent, not changed',
  sectionAccount: (title: string) => `${title} (the agent's account)`,
  sectionContradicted: (title: string) => `${title} (the agent's claim, contradicted by Wrench's checks)`,
  ownChecksUnconfirmed: 'What the agent said it checked (not confirmed by Wrench)',
  ownChecksContradicted: "What the agent said it checked (contradicted by Wrench's checks)",
  openQuestions: 'Open questions (from the agent)',
  measuredFailed: (command: string, counts: string) => `Measured by Wrench: \`${command}\` failed after the change${counts}.`,
  measuredRegressed: 'Measured by Wrench: checks that passed before the change fail after it (see Verification).',
  /** After a changed file's path and counts: what the agent says it changed there. */
  agentSays: (description: string) => `: the agent says: ${description}`,
  /** After a path the agent named that the committed diff does not hold. */
  claimedOnly: (change: string) => `: claimed, not changed (the agent said: ${change})`,
  /** The repository's instructions for agents the run read: `files` their paths in backticks, each with a note below. */
  instructionsRead: (files: string) => `Instructions for agents read from the repository: ${files}.`,
  /** After such a file: only its beginning was given to the agent. */
  instructionTruncated: '(truncated)',
  /** After such a file: nothing of it was given (the size limit was reached). */
  instructionOmitted: '(left out: size limit)',
  /** After such a file: a link to, or a copy of, `path`, given once. */
  instructionSameAs: (path: string) => `(same as ${path})`,
  steps: (n: number) => `${n} ${n === 1 ? 'step' : 'steps'}`,
  files: (n: number) => `${n} ${n === 1 ? 'file' : 'files'}`,
  tokens: 'tokens',
};

export type ReportStrings = typeof reportEn;
