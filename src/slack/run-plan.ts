import type { AnyChunk, TaskUpdateChunk } from '@slack/types';
import { lineCounts, renderResultMarkdown } from '../reporting/render-result-text.js';
import type { RunPhase, RunResult } from '../reporting/run-result.js';
import { escapeMrkdwn, truncate } from './slack-escape.js';

type Stage = 'reading' | 'preparing' | 'working' | 'verifying' | 'publishing' | 'question';
type TaskStatus = TaskUpdateChunk['status'];

const STAGE_TITLES: Record<Stage, string> = {
  reading: 'Read the request',
  preparing: 'Prepare the workspace',
  working: 'Work on the change',
  verifying: 'Verify: run the tests and checks',
  publishing: 'Publish: open or update the pull request',
  question: 'Wait for the answer to my question',
};

const PLAN_TITLES: Partial<Record<RunPhase, string>> = {
  queued: 'Queued',
  waiting: 'Paused: waiting for an answer',
  done: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

const STATUS_EMOJI: Record<TaskStatus, string> = {
  pending: ':white_circle:',
  in_progress: ':hourglass_flowing_sand:',
  complete: ':white_check_mark:',
  error: ':x:',
};

/** Slack's limits for chunks: markdown_text 12,000 characters (documented), a task's output 256 (SDKs' published limit). */
const MARKDOWN_CHUNK = 12_000;
const TASK_OUTPUT = 256;
/** A final reply longer than this is cut, pointing at the run page for the rest. */
const MARKDOWN_TOTAL = 36_000;

/**
 * A run's stages as the tasks of a Slack plan (`task_update` chunks in a streamed message): a stage appears when the
 * run reaches it, in progress; the one before it is then complete. A failure marks the current stage `error` with
 * its reason, a cancellation too (the plan's title says which), and a pause adds the wait for an answer.
 */
export class RunPlan {
  private readonly tasks = new Map<Stage, { status: TaskStatus; output?: string }>();
  private current: Stage = 'reading';
  private title: string;
  /** What the last chunks taken showed: the next ones carry only what changed since. */
  private shown = { title: '', tasks: new Map<Stage, { status: TaskStatus; output?: string }>() };

  constructor(private readonly repository: string) {
    this.title = `Working on ${repository}`;
    this.tasks.set('reading', { status: 'complete' });
  }

  /** Notes that the run reached `phase` (every phase, also those whose display the rate limit skips). */
  advance(phase: RunPhase, detail?: string): void {
    this.title = PLAN_TITLES[phase] ? `${PLAN_TITLES[phase]}: ${this.repository}` : `Working on ${this.repository}`;
    if (phase === 'queued') {
      if (detail) this.title = `Queued: ${truncate(detail, 120)}`;
    } else if (phase === 'preparing' || phase === 'working' || phase === 'verifying' || phase === 'publishing') {
      this.moveTo(phase, detail);
    } else if (phase === 'waiting') {
      this.moveTo('question', detail);
    } else if (phase === 'done') {
      this.finish('complete', detail);
    } else {
      // failed, cancelled: the stage the run was in did not finish.
      this.finish('error', detail ?? (phase === 'cancelled' ? 'Cancelled' : undefined));
    }
  }

  /** The chunks that show what changed since the last ones taken: the plan title, and every task that moved. */
  takeChanges(): AnyChunk[] {
    const chunks: AnyChunk[] = this.title === this.shown.title ? [] : [{ type: 'plan_update', title: this.title }];
    for (const [stage, task] of this.tasks) {
      const old = this.shown.tasks.get(stage);
      if (!old || old.status !== task.status || old.output !== task.output) chunks.push(taskChunk(stage, task));
    }
    this.shown = { title: this.title, tasks: new Map([...this.tasks].map(([stage, task]) => [stage, { ...task }])) };
    return chunks;
  }

  /** The plan in mrkdwn, for the card that stands in where Slack does not stream. */
  fallbackText(): string {
    const lines = [...this.tasks].map(
      ([stage, task]) => `${STATUS_EMOJI[task.status]} ${STAGE_TITLES[stage]}${task.output ? ` · ${escapeMrkdwn(task.output)}` : ''}`,
    );
    return [`*${escapeMrkdwn(this.title)}*`, ...lines].join('\n');
  }

  private moveTo(stage: Stage, detail: string | undefined): void {
    const previous = this.tasks.get(this.current);
    if (previous?.status === 'in_progress' && stage !== this.current) previous.status = 'complete';
    this.current = stage;
    this.tasks.set(stage, { status: 'in_progress', ...(detail ? { output: truncate(detail, TASK_OUTPUT) } : {}) });
  }

  private finish(status: TaskStatus, detail: string | undefined): void {
    const task = this.tasks.get(this.current);
    if (!task) return;
    if (task.status === 'in_progress' || status === 'error') task.status = status;
    if (detail) task.output = truncate(detail, TASK_OUTPUT);
  }
}

function taskChunk(stage: Stage, task: { status: TaskStatus; output?: string }): TaskUpdateChunk {
  return { type: 'task_update', id: stage, title: STAGE_TITLES[stage], status: task.status, ...(task.output ? { output: task.output } : {}) };
}

/**
 * The final reply as Markdown for the streamed message: the measured outcome line first, then the pull request, then
 * the report; `&` and `<` escaped so the model's words cannot form mentions or links Slack would act on.
 */
export function streamedResult(result: RunResult, runPageUrl?: string): string {
  const report = escapeForSlack(renderResultMarkdown({ ...result, usage: undefined }));
  const pull = result.pullRequest;
  const pullLine = result.headline
    ? // Wrench's own mrkdwn (outside text in it is escaped already): its links become Markdown links.
      result.headline.replace(/<(https?:\/\/[^|>\s]+)\|([^>]+)>/g, '[$2]($1)')
    : pull
      ? `${result.status === 'pr_updated' ? 'Updated' : 'Opened'} ${pull.draft ? 'draft ' : ''}[PR #${pull.number}: ${escapeLinkText(pull.title || pull.url)}](${pull.url})${lineCounts(result)}`
      : undefined;
  const [first = '', ...rest] = report.split('\n\n');
  const startsWithOutcome = first.startsWith('Outcome:');
  const parts = startsWithOutcome ? [first, pullLine, rest.join('\n\n')] : [pullLine, report];
  if (runPageUrl && /^https?:\/\/\S+$/.test(runPageUrl)) parts.push(`[Every step of this run](${runPageUrl})`);
  const text = parts.filter(Boolean).join('\n\n');
  return text.length <= MARKDOWN_TOTAL ? text : `${truncate(text, MARKDOWN_TOTAL - 80)}\n\n_The rest is on the run page._`;
}

/** `markdown_text` chunks of at most 12,000 characters each, cut at line ends where one is near. */
export function markdownChunks(text: string): AnyChunk[] {
  const chunks: AnyChunk[] = [];
  let rest = text;
  while (rest.length > 0) {
    let cut = Math.min(rest.length, MARKDOWN_CHUNK);
    if (cut < rest.length) {
      const lineEnd = rest.lastIndexOf('\n', cut);
      if (lineEnd > MARKDOWN_CHUNK / 2) cut = lineEnd + 1;
    }
    chunks.push({ type: 'markdown_text', text: rest.slice(0, cut) });
    rest = rest.slice(cut);
  }
  return chunks;
}

/** `&` and `<` escaped: no `<!channel>`, `<@U…>` or `<url|label>` can form; `>` stays, for the report's quotes. */
function escapeForSlack(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
}

function escapeLinkText(text: string): string {
  return escapeForSlack(text).replace(/[[\]]/g, '');
}
