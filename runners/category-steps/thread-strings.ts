import type { TaskJob } from '../../src/queue/task-job.js';
import type { ResultSection } from '../../src/reporting/run-result.js';
import { stringsFor, type ThreadStrings } from '../../src/slack/strings/index.js';

/** Wrench's words in the thread's language, when a run asked in Slack speaks another than English. */
export function threadStrings(job: TaskJob): ThreadStrings | undefined {
  return job.origin.type === 'slack' && !job.localPath && job.language && job.language !== 'en' ? stringsFor(job.language) : undefined;
}

/** A section in English (the pull request body's), with the thread's words beside it when the thread speaks another language. */
export function sectionFor(job: TaskJob, words: (t: ThreadStrings) => { title: string; body: string }, extra: { claim?: boolean } = {}): ResultSection {
  const thread = threadStrings(job);
  return { ...words(stringsFor('en')), ...extra, ...(thread ? { inThread: words(thread) } : {}) };
}
