import { renderProgress } from '../reporting/progress.js';
import type { AgentEvent } from '../agent/agent-loop.js';
import type { Logger } from '../logging/logger.js';
import type { Metrics } from '../metrics/metrics.js';
import type { RunPhase, RunReporter, RunResult } from '../reporting/run-result.js';
import { renderResultPlain } from '../reporting/render-result-text.js';
import type { Redactor } from '../security/redact.js';
import { editDiff } from './edit-diff.js';
import type { RunLinks } from './run-links.js';
import type { RunLogStore } from './run-log-store.js';
import type { RunEntry, RunSummary } from './run-log-types.js';

const EDITOR_TOOL = 'str_replace_based_edit_tool';
const FINAL_PHASES: RunPhase[] = ['done', 'failed', 'cancelled'];

/** What a worker needs to record its runs (run pages, App Home, metrics). */
export interface RunLogOptions {
  store: RunLogStore;
  maxBytes: number;
  links?: RunLinks;
  metrics?: Metrics;
}

/** What a run's record starts with; the rest is filled in as the run goes. */
export type RunRecordStart = Omit<RunSummary, 'status' | 'startedAt' | 'phases' | 'bytes' | 'truncated'> & { queuedAt?: number };

/** Starts a run's record (task or triage); a Redis problem here is logged and does not stop the run. */
export function startRunRecord(runLog: RunLogOptions | undefined, redact: Redactor, init: RunRecordStart, log: Logger): Promise<RunRecorder | undefined> {
  if (!runLog) return Promise.resolve(undefined);
  return RunRecorder.start(runLog.store, redact, init, { maxBytes: runLog.maxBytes, metrics: runLog.metrics }, log).catch((error) => {
    log.warn({ err: error }, 'could not start the run record');
    return undefined;
  });
}

export interface RecorderOptions {
  /** Size cap of the stored timeline. */
  maxBytes: number;
  /** Longest tool output or model text kept per entry (head and tail are kept). */
  maxTextChars?: number;
  metrics?: Metrics;
  now?: () => number;
}

/**
 * Writes one run's record as it goes, from the worker: phases (from its reporter), the agent's
 * events, verification and the final diff. Everything passes the redactor, texts are bounded, the
 * timeline stops at the size cap with a note. Writes are queued in order and never fail the run.
 */
export class RunRecorder {
  private chain: Promise<void> = Promise.resolve();
  private readonly maxTextChars: number;
  private readonly now: () => number;
  private capped = false;
  private finished = false;

  private constructor(
    private readonly store: RunLogStore,
    private readonly redact: Redactor,
    private readonly summary: RunSummary,
    private readonly options: RecorderOptions,
    private readonly log: Logger,
  ) {
    this.maxTextChars = options.maxTextChars ?? 12_000;
    this.now = options.now ?? Date.now;
  }

  static async start(store: RunLogStore, redact: Redactor, init: RunRecordStart, options: RecorderOptions, log: Logger): Promise<RunRecorder> {
    const now = options.now ?? Date.now;
    const { queuedAt, ...fields } = init;
    const startedAt = now();
    const phases: RunSummary['phases'] = queuedAt !== undefined && queuedAt < startedAt ? [{ name: 'queued', startedAt: queuedAt, endedAt: startedAt }] : [];
    if (queuedAt !== undefined && phases[0]) options.metrics?.phaseDuration.observe({ phase: 'queued' }, (startedAt - queuedAt) / 1000);
    const summary: RunSummary = redact.deep({ ...fields, status: 'running', startedAt, phases, bytes: 0, truncated: false });
    const recorder = new RunRecorder(store, redact, summary, options, log);
    await store.saveSummary(summary, { fresh: true });
    return recorder;
  }

  get id(): string {
    return this.summary.id;
  }

  /** Details that came after the record started (the thread's link, the requester's name: Slack lookups). */
  describe(details: Pick<RunRecordStart, 'threadUrl' | 'requesterName'>): void {
    const known = Object.fromEntries(Object.entries(details).filter(([, value]) => value !== undefined));
    if (Object.keys(known).length === 0) return;
    Object.assign(this.summary, this.redact.deep(known));
    this.saveSummary();
  }

  phase(phase: RunPhase, detail?: string): void {
    if (this.finished) return;
    const at = this.now();
    const current = this.summary.phases.at(-1);
    if (current?.name !== phase) {
      this.closePhase(at);
      if (!FINAL_PHASES.includes(phase)) this.summary.phases.push({ name: phase, startedAt: at });
    }
    // Each tool call also moves the status to `working · <call>`: the tool entry already says so.
    if (current?.name === phase && phase === 'working') {
      this.saveSummary();
      return;
    }
    this.push({ kind: 'phase', at, phase, detail: detail === undefined ? undefined : this.redact(detail) }, true);
  }

  agentEvent(event: AgentEvent): void {
    const at = this.now();
    if (event.type === 'text') this.push({ kind: 'text', at, step: event.step, text: this.bound(event.detail) });
    else if (event.type === 'usage' && event.usage) {
      this.summary.usage = { ...event.usage };
      this.summary.costUsd = event.costUsd;
      if (event.turn)
        this.push({
          kind: 'turn',
          at,
          step: event.step,
          latencyMs: event.turn.latencyMs,
          usage: { ...event.turn.usage },
          ...(event.turn.budgetWaitMs ? { budgetWaitMs: event.turn.budgetWaitMs } : {}),
        });
      this.saveSummary();
    } else if (event.type === 'tool_result' && event.call) {
      const { name, input, output = '', isError = false, durationMs, exitCode } = event.call;
      const edit = name === EDITOR_TOOL && !isError ? editDiff(input) : null;
      if (edit) this.push({ kind: 'edit', at, step: event.step, path: this.redact(edit.path), diff: this.bound(edit.diff), durationMs });
      else
        this.push({
          kind: 'tool',
          at,
          step: event.step,
          name,
          title: this.redact(event.detail),
          input: this.bound(toolInputText(name, input)),
          output: this.bound(output),
          isError,
          durationMs,
          exitCode,
        });
    } else if (event.type === 'context_cleared' || event.type === 'retry_output') {
      this.push({ kind: 'note', at, text: this.redact(event.detail), level: 'info' });
    }
  }

  verification(outcome: { text: string; regressed: boolean }): void {
    this.push({ kind: 'verification', at: this.now(), text: this.bound(outcome.text), passed: !outcome.regressed });
  }

  changes(diff: string): void {
    if (diff.trim()) this.push({ kind: 'changes', at: this.now(), diff: this.bound(diff, 60_000) });
  }

  note(text: string, level: 'info' | 'warning' | 'error' = 'info'): void {
    this.push({ kind: 'note', at: this.now(), text: this.bound(text), level });
  }

  finish(result: RunResult): void {
    const cancelled = result.stopCode === 'cancelled';
    this.end(cancelled ? 'cancelled' : 'done', cancelled ? 'cancelled' : result.status, {
      // The whole report as the thread has it: measurements, and the agent's words marked as its claims.
      summary: renderResultPlain({ ...result, usage: undefined }),
      pullRequest: result.pullRequest,
      usage: result.usage,
      costUsd: result.costUsd,
    });
  }

  /** A run that ends without a RunResult (a triage): its outcome word and what it concluded. */
  complete(outcome: string, extra: Pick<RunSummary, 'summary' | 'usage' | 'costUsd'>): void {
    this.end('done', outcome, extra);
  }

  fail(message: string): void {
    this.note(message, 'error');
    this.end('failed', 'failed', { summary: message });
  }

  cancelled(): void {
    this.end('cancelled', 'cancelled', {});
  }

  /** Resolves once everything recorded so far is in Redis. */
  flush(): Promise<void> {
    return this.chain;
  }

  private end(status: RunSummary['status'], outcome: string, extra: Pick<RunSummary, 'summary' | 'pullRequest' | 'usage' | 'costUsd'>): void {
    if (this.finished) return;
    const at = this.now();
    this.closePhase(at);
    this.finished = true;
    Object.assign(this.summary, this.redact.deep(stripUndefined({ ...extra, summary: extra.summary?.slice(0, 6000) })), { status, outcome, finishedAt: at });
    this.saveSummary();
    const finished = structuredClone(this.summary);
    this.enqueue(() => this.store.countFinished(finished));
    const metrics = this.options.metrics;
    if (!metrics) return;
    const category = this.summary.category;
    metrics.runs.inc({ category, outcome });
    metrics.runDuration.observe({ category }, (at - this.summary.startedAt) / 1000);
    const usage = this.summary.usage;
    if (usage) {
      metrics.tokens.inc({ kind: 'input' }, usage.inputTokens);
      metrics.tokens.inc({ kind: 'output' }, usage.outputTokens);
      metrics.tokens.inc({ kind: 'cache_write' }, usage.cacheWriteTokens);
      metrics.tokens.inc({ kind: 'cache_read' }, usage.cacheReadTokens);
      metrics.runTokens.observe({ category }, usage.inputTokens + usage.outputTokens + usage.cacheWriteTokens + usage.cacheReadTokens);
    }
    if (this.summary.costUsd) metrics.cost.inc({ category }, this.summary.costUsd);
  }

  private closePhase(at: number): void {
    const current = this.summary.phases.at(-1);
    if (!current || current.endedAt !== undefined) return;
    current.endedAt = at;
    this.options.metrics?.phaseDuration.observe({ phase: current.name }, (at - current.startedAt) / 1000);
  }

  private push(entry: RunEntry, withSummary = false): void {
    if (this.capped) {
      if (withSummary) this.saveSummary();
      return;
    }
    const size = Buffer.byteLength(JSON.stringify(entry));
    const entries: RunEntry[] = [entry];
    if (this.summary.bytes + size > this.options.maxBytes) {
      this.capped = true;
      this.summary.truncated = true;
      entries[0] = {
        kind: 'note',
        at: entry.at,
        level: 'warning',
        text: `This record reached its size cap (${Math.round(this.options.maxBytes / 1024)} KB); later steps are not shown. The thread and the pull request have the outcome.`,
      };
    } else {
      this.summary.bytes += size;
    }
    this.enqueue(() => this.store.append(this.summary.id, entries));
    // The summary's byte count follows with the next phase, usage or outcome; a capped record says so at once.
    if (withSummary || this.capped) this.saveSummary();
  }

  private saveSummary(): void {
    const snapshot = structuredClone(this.summary);
    this.enqueue(() => this.store.saveSummary(snapshot));
  }

  private enqueue(write: () => Promise<void>): void {
    this.chain = this.chain.then(write).catch((error) => this.log.warn({ err: error }, 'could not write the run record'));
  }

  /** Redacted, and long texts keep their head and tail. */
  private bound(text: string, max = this.maxTextChars): string {
    const clean = this.redact(text);
    if (clean.length <= max) return clean;
    const head = Math.floor(max * 0.6);
    const tail = max - head;
    return `${clean.slice(0, head)}\n… ${clean.length - max} characters not kept …\n${clean.slice(clean.length - tail)}`;
  }
}

/** A reporter that also records the run's phases and outcome, then reports as before. */
export function recordingReporter(reporter: RunReporter, recorder: RunRecorder): RunReporter {
  // The plan's update_plan calls are recorded as the agent's tool steps; the plan itself goes to the thread.
  const plan = reporter.plan?.bind(reporter);
  // Where the thread shows the agent's question (and, resumed, what settled it), it is told of them too.
  const asked = reporter.asked?.bind(reporter);
  const resumedAfter = reporter.resumedAfter?.bind(reporter);
  return {
    inputFiles: reporter.inputFiles,
    ...(plan ? { plan } : {}),
    ...(asked ? { asked } : {}),
    ...(resumedAfter ? { resumedAfter } : {}),
    phase: (phase, detail) => {
      // The record keeps the English words (what the run page shows; records stay readable as they were written).
      const said = detail && renderProgress(detail);
      if (phase === 'cancelled') recorder.cancelled();
      else if (phase !== 'failed') recorder.phase(phase, said);
      // A run paused on a question ends this job's record; the resume job keeps its own (with the whole usage).
      if (phase === 'waiting') recorder.complete('waiting', { summary: said });
      return reporter.phase(phase, detail);
    },
    finished: (result) => {
      recorder.finish(result);
      return reporter.finished(result);
    },
    failed: (message) => {
      recorder.fail(message);
      return reporter.failed(message);
    },
  };
}

/** A shell command as typed; any other input as JSON. */
function toolInputText(name: string, input: unknown): string {
  const command = (input as { command?: unknown } | null)?.command;
  if (name === 'bash' && typeof command === 'string') return command;
  return JSON.stringify(input, null, 2) ?? '';
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
