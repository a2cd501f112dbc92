import type { AnyChunk, PlanBlock, RichTextBlock, TaskCardBlock, TaskUpdateChunk } from '@slack/types';
import { lineCounts } from '../reporting/render-result-text.js';
import type { AgentPlan } from '../agent/plan-tool.js';
import type { RunPhase, RunResult } from '../reporting/run-result.js';
import { reportMarkdown } from './render-run-result.js';
import type { ProgressDetail } from '../reporting/progress.js';
import { type StatusDetail, statusDetailText } from './slack-run-reporter.js';
import { escapeMrkdwn, truncate } from './slack-escape.js';
import { en, type ThreadStrings } from './strings/en.js';

type Stage = 'reading' | 'preparing' | 'working' | 'edits' | 'agent-tests' | 'verifying' | 'publishing' | 'question';
/** While a run goes on, the plan's title says how to stop it (the streamed message has no button until it ends). */
export const STOP_HINT = en.plan.stopHint;
type Task = { status: TaskStatus; output?: string };
/** A task of the plan: a stage of the run, or (`agent-<n>`) a step of the agent's own plan, with its title. */
type TaskId = Stage | `agent-${number}` | `note-${number}`;
type TaskStatus = TaskUpdateChunk['status'];

const STATUS_EMOJI: Record<TaskStatus, string> = {
  pending: ':white_circle:',
  in_progress: ':hourglass_flowing_sand:',
  complete: ':white_check_mark:',
  error: ':x:',
};

/** Slack's limits for chunks: markdown_text 12,000 characters (documented), a task's output 256 (SDKs' published limit). */
const MARKDOWN_CHUNK = 12_000;
const TASK_OUTPUT = 256;
/** A Slack mention of a person, `<@U…>`, in a task's text. */
const MENTION = /<@([A-Z0-9]+)>/g;
/** Commands that run a test suite, among the agent's tool steps. */
const TEST_COMMAND = /\b(npm (run )?test|yarn test|pnpm test|node --test|vitest|jest|pytest|go test|cargo test|mvn test|gradle test|make test|rspec|phpunit)\b/;
/** A final reply longer than this is cut, pointing at the run page for the rest. */
const MARKDOWN_TOTAL = 36_000;

/**
 * A run's stages as the tasks of a Slack plan (`task_update` chunks in a streamed message): a stage appears when the
 * run reaches it, in progress; the one before it is then complete. A failure marks the current stage `error` with
 * its reason, a cancellation too (the plan's title says which), and a pause adds the wait for an answer. Of the
 * agent's tool steps, the files it edits and the test commands it runs show as tasks of their own (coalesced: the
 * files so far, the last command), the rest as the working stage's output; the working stage links the run page.
 */
export class RunPlan {
  private readonly tasks = new Map<TaskId, Task>();
  /** The titles of the agent's own steps and of notes (a stage's title is its own). */
  private readonly agentTitles = new Map<TaskId, string>();
  private current: Stage = 'reading';
  private title: string;
  /** What the last chunks taken showed: the next ones carry only what changed since. */
  private shown = { title: '', tasks: new Map<TaskId, Task>() };

  /** People's names by Slack user id: a mention in a task's plain text shows as `@name` (`@U…` while unknown). */
  readonly names = new Map<string, string>();

  private readonly editedFiles = new Set<string>();
  private testRuns = 0;

  /** `reading`: what Wrench understood of the request (the card's first line), shown as the reading task's output. */
  constructor(
    private readonly repository: string,
    private readonly runPageUrl?: string,
    reading?: string,
    private readonly strings: ThreadStrings = en,
    /** A question's run reads the code to answer: its working stage says so, not "work on the change". */
    private readonly answering = false,
  ) {
    this.title = this.underWay(strings.plan.workingOn(repository));
    this.tasks.set('reading', { status: 'complete', ...(reading ? { output: truncate(reading, TASK_OUTPUT) } : {}) });
  }

  /** Notes that the run reached `phase` (every phase, also those whose display the rate limit skips). */
  advance(phase: RunPhase, detail?: StatusDetail): void {
    const ends = phase === 'done' || phase === 'failed' || phase === 'cancelled' || phase === 'waiting';
    const plan = this.strings.plan;
    const stated = phase === 'queued' || phase === 'waiting' || phase === 'done' || phase === 'failed' || phase === 'cancelled';
    const title = stated ? plan.state(phase, this.repository) : plan.workingOn(this.repository);
    this.title = ends ? title : this.underWay(title);
    if (phase === 'queued') {
      if (detail) this.title = this.underWay(plan.state('queued', truncate(this.inThreadLanguage(detail), 120)));
    } else if (phase === 'working' && detail && 'key' in detail && this.current === 'working' && this.toolStep(detail)) {
      // Shown as a task of its own.
    } else if (phase === 'preparing' || phase === 'working' || phase === 'verifying' || phase === 'publishing') {
      this.moveTo(phase, detail);
    } else if (phase === 'waiting') {
      this.moveTo('question', detail);
      this.settleAgentSteps();
    } else if (phase === 'done') {
      this.finish('complete', detail);
    } else {
      // failed, cancelled: the stage the run was in did not finish.
      this.finish('error', detail ?? (phase === 'cancelled' ? { text: plan.cancelled } : undefined));
    }
  }

  /** The chunks that show what changed since the last ones taken: the plan title, and every task that moved. */
  takeChanges(): AnyChunk[] {
    const chunks: AnyChunk[] = this.title === this.shown.title ? [] : [{ type: 'plan_update', title: this.title }];
    for (const [stage, task] of this.tasks) {
      const old = this.shown.tasks.get(stage);
      if (!old || old.status !== task.status || old.output !== task.output) chunks.push(this.taskChunk(stage, task));
    }
    this.shown = { title: this.title, tasks: new Map([...this.tasks].map(([id, task]) => [id, { ...task }])) };
    return chunks;
  }

  /** The people mentioned in the tasks' text (who cancelled, who was asked) whose names are not known yet. */
  unnamedMentions(): string[] {
    const ids = [...this.tasks.values()].flatMap((task) => [...(task.output ?? '').matchAll(MENTION)].map((m) => m[1] ?? ''));
    return [...new Set(ids)].filter((id) => id && !this.names.has(id));
  }

  /** The plan in mrkdwn, for the card that stands in where Slack does not stream. */
  fallbackText(): string {
    const lines = [...this.tasks].map(
      ([id, task]) => `${STATUS_EMOJI[task.status]} ${escapeMrkdwn(this.titleOf(id))}${task.output ? ` · ${escapeMrkdwn(this.named(task.output))}` : ''}`,
    );
    return [`*${escapeMrkdwn(this.title)}*`, ...lines].join('\n');
  }

  /**
   * The plan as Slack's own blocks (a `plan` block of `task_card` blocks, as Slack renders a streamed plan): what a
   * stream Slack ended is edited into, so the message keeps its look.
   */
  block(): PlanBlock {
    const tasks = [...this.tasks].map(([id, task]): TaskCardBlock => {
      const { type: _type, id: taskId, output, details: _details, ...card } = this.taskChunk(id, task);
      return { type: 'task_card', task_id: taskId, ...card, ...(output ? { output: richText(output) } : {}) };
    });
    return { type: 'plan', title: this.title, tasks };
  }

  /**
   * The paused plan as it reads once its question is settled and before the run goes on: queued again, the question
   * done (as Slack blocks and as mrkdwn). The plan itself stays paused.
   */
  settledView(): { block: PlanBlock; text: string } {
    const { title } = this;
    const question = this.tasks.get('question');
    this.title = this.strings.plan.state('queued', this.repository);
    this.tasks.set('question', { status: 'complete' });
    try {
      return { block: this.block(), text: this.fallbackText() };
    } finally {
      this.title = title;
      if (question) this.tasks.set('question', question);
      else this.tasks.delete('question');
    }
  }

  /** The plan of a run resumed after its question was settled: the question is done, the work goes on from there. */
  questionSettled(): void {
    this.tasks.set('question', { status: 'complete' });
    this.current = 'question';
  }

  /** A note of Wrench's about the run (an image not sent, say): a task of its own, done, in the plan's order. */
  note(text: string): void {
    const id: TaskId = `note-${[...this.tasks.keys()].filter((key) => key.startsWith('note-')).length + 1}`;
    this.agentTitles.set(id, truncate(text.replace(/^:[a-z0-9_+-]+:\s*/, ''), TASK_OUTPUT));
    this.tasks.set(id, { status: 'complete' });
  }

  /**
   * The agent's plan as it stated it last: each step a task of its own, marked as the agent's, with the status the
   * agent gave it (done is complete). Steps keep their place by position; a step the agent dropped is shown as not done.
   */
  agentPlan(steps: AgentPlan): void {
    steps.forEach(({ step, status }, i) => {
      const id: TaskId = `agent-${i + 1}`;
      this.agentTitles.set(id, truncate(this.strings.plan.agentStep(step), TASK_OUTPUT));
      this.tasks.set(id, { status: status === 'done' ? 'complete' : status });
    });
    for (let i = steps.length + 1; this.tasks.has(`agent-${i}`); i += 1)
      this.tasks.set(`agent-${i}`, { status: 'pending', output: this.strings.plan.droppedStep });
  }

  /** An edit or a test run of the agent's: noted in its own task. False for other steps. */
  private toolStep(detail: ProgressDetail): boolean {
    const edited = detail.key === 'editing' ? detail.path : undefined;
    const command = detail.key === 'running' ? detail.command : undefined;
    if (edited) {
      this.editedFiles.add(edited);
      const files = [...this.editedFiles];
      this.tasks.set('edits', {
        status: 'in_progress',
        output: truncate(this.strings.plan.editedFiles(files.length, files.join(', ')), TASK_OUTPUT),
      });
      return true;
    }
    if (command && TEST_COMMAND.test(command)) {
      this.testRuns += 1;
      this.tasks.set('agent-tests', {
        status: 'in_progress',
        output: truncate(this.strings.plan.testRuns(this.testRuns, command), TASK_OUTPUT),
      });
      return true;
    }
    return false;
  }

  /** This message ends (the run ended or paused): the agent's steps keep the status it gave them, none shows as under way. */
  private settleAgentSteps(): void {
    for (const id of this.agentTitles.keys()) {
      const step = id.startsWith('agent-') ? this.tasks.get(id) : undefined;
      if (step?.status === 'in_progress') Object.assign(step, { status: 'pending', output: step.output ?? this.strings.plan.notMarkedDone });
    }
  }

  /** The agent's edits and test runs are over once the stage they belong to is. */
  private settleToolSteps(): void {
    for (const stage of ['edits', 'agent-tests'] as const) {
      const task = this.tasks.get(stage);
      if (task?.status === 'in_progress') task.status = 'complete';
    }
  }

  private moveTo(stage: Stage, detail: StatusDetail | undefined): void {
    const previous = this.tasks.get(this.current);
    if (previous?.status === 'in_progress' && stage !== this.current) previous.status = 'complete';
    if (stage !== 'working') this.settleToolSteps();
    this.current = stage;
    this.tasks.set(stage, { status: 'in_progress', ...(detail ? { output: truncate(this.inThreadLanguage(detail), TASK_OUTPUT) } : {}) });
  }

  private finish(status: TaskStatus, detail: StatusDetail | undefined): void {
    this.settleToolSteps();
    this.settleAgentSteps();
    const task = this.tasks.get(this.current);
    if (!task) return;
    if (task.status === 'in_progress' || status === 'error') task.status = status;
    if (detail) task.output = truncate(this.inThreadLanguage(detail), TASK_OUTPUT);
  }

  /** A detail in the thread's language. */
  private inThreadLanguage(detail: StatusDetail): string {
    return statusDetailText(detail, this.strings) ?? '';
  }

  /** A title while the run goes on: with how to stop it, within Slack's 256 characters for a title. */
  private underWay(title: string): string {
    return `${truncate(title, 200)} · ${this.strings.plan.stopHint}`;
  }

  /** A task's text as plain text: mentions as names (a task shows text as it is, where `<@U…>` would read as markup). */
  private named(text: string): string {
    return text.replace(MENTION, (_mention, id: string) => `@${this.names.get(id) ?? id}`);
  }

  private titleOf(id: TaskId): string {
    if (id === 'working' && this.answering) return this.strings.plan.stages.answering;
    return this.agentTitles.get(id) ?? this.strings.plan.stages[id as Stage];
  }

  private taskChunk(stage: TaskId, task: Task): TaskUpdateChunk {
    // The run page (what the card linked): from the reading task, so it is there from the start, and from the work.
    const page = (stage === 'working' || stage === 'reading') && this.runPageUrl && /^https?:\/\/\S+$/.test(this.runPageUrl) ? this.runPageUrl : undefined;
    return {
      type: 'task_update',
      id: stage,
      title: this.titleOf(stage),
      status: task.status,
      ...(task.output ? { output: this.named(task.output) } : {}),
      ...(page ? { sources: [{ type: 'url', url: page, text: this.strings.plan.everyStepOnPage }] } : {}),
    };
  }
}

/** Plain text as the one rich_text entity a task card's output is. */
function richText(text: string): RichTextBlock {
  return { type: 'rich_text', elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text }] }] };
}

/**
 * The final reply as Markdown for the streamed message: the measured outcome line first, then the pull request, then
 * the report; `&` and `<` escaped so the model's words cannot form mentions or links Slack would act on (Wrench's own
 * mention of who cancelled the run stays one).
 */
export function streamedResult(result: RunResult, runPageUrl?: string, strings: ThreadStrings = en): string {
  const report = reportMarkdown(result, strings);
  const pull = result.pullRequest;
  const headline = result.threadHeadline ?? result.headline;
  const pullLine = headline
    ? // Wrench's own mrkdwn (outside text in it is escaped already): its links become Markdown links.
      headline.replace(/<(https?:\/\/[^|>\s]+)\|([^>]+)>/g, '[$2]($1)')
    : pull
      ? pullLineOf(result, `[PR #${pull.number}: ${escapeLinkText(pull.title || pull.url)}](${pull.url})`, strings)
      : noPullLine(result, strings);
  const [first = '', ...rest] = report.split('\n\n');
  const startsWithOutcome = first.startsWith(strings.report.outcomePrefix);
  const parts = startsWithOutcome ? [first, pullLine, rest.join('\n\n')] : [pullLine, report];
  if (runPageUrl && /^https?:\/\/\S+$/.test(runPageUrl)) parts.push(`[${strings.everyStepOfThisRun}](${runPageUrl})`);
  const text = parts.filter(Boolean).join('\n\n');
  return text.length <= MARKDOWN_TOTAL ? text : `${truncate(text, MARKDOWN_TOTAL - 80)}\n\n_${strings.plan.restOnPage}_`;
}

/** What a run without a pull request left, as the card's reply says it: "No files changed, so no pull request." */
function noPullLine(result: RunResult, t: ThreadStrings): string | undefined {
  const line = result.status === 'answered' ? t.answeredNoChange : result.status === 'stopped' ? t.stoppedNoChanges : undefined;
  return line?.replace(/^:[a-z_]+: /, '');
}

/** "Opened PR #3: title (2 files, +12 −4)" in the thread's words, without the headline's emoji (the plan shows the state). */
function pullLineOf(result: RunResult, pull: string, t: ThreadStrings): string {
  const draft = !!result.pullRequest?.draft;
  const counts = lineCounts(result, t.report);
  const line = result.status === 'pr_updated' ? t.updated(draft, pull, counts) : t.opened(draft, pull, counts);
  return line.replace(/^:[a-z_]+: /, '');
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
