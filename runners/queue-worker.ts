import {
  DelayedError,
  Queue,
  RateLimitError,
  UnrecoverableError,
  WaitingChildrenError,
  WaitingError,
  Worker,
  type ConnectionOptions,
  type Job,
  type WorkerOptions,
} from 'bullmq';
import type { RedisClient } from '../src/redis/redis-connection.js';
import type { z } from 'zod';
import { describeError } from '../src/errors.js';
import type { Logger } from '../src/logging/logger.js';
import { isConnectionError } from '../src/redis/redis-connection.js';
import { Cancellation, RunCancelled, ShutdownSignal } from '../src/sessions/cancellation.js';
import { isTransient } from './failure-message.js';
import { bullJobClaim, lostClaimOf, type JobClaim } from '../src/queue/job-claim.js';

/** What a processor is given besides the job and its parsed data. */
export interface JobContext {
  jobId: string;
  /** BullMQ's lock token of this attempt (for `job.moveToDelayed`). */
  token: string | undefined;
  /**
   * Aborted when someone cancels the job (reason: `RunCancelled`, already aborted when the cancel came before the
   * job started), when the worker shuts down and the grace is over (reason: `ShutdownSignal`), or by BullMQ's
   * `worker.cancelJob`.
   */
  signal: AbortSignal;
  /** Bound to the queue, the job id and the fields of `logFields`. */
  log: Logger;
  /**
   * This attempt's hold on the job (src/queue/job-claim.ts): every outside effect checks it first. When it is lost
   * (BullMQ could not renew the lock, or a check found it gone) the signal is aborted with `LostClaimError`, and the
   * attempt ends quietly: no failure handler runs, and BullMQ is left to the attempt that holds the job now.
   */
  claim: JobClaim;
  /** From now on a failure is final: the work has begun (the agent, a revert), and a second attempt could repeat it. */
  markStarted(): void;
  /** `handler` is told once if this attempt fails; `final`: no other attempt follows (say so where the job was asked). */
  onFailure(handler: (error: unknown, final: boolean) => Promise<void> | void): void;
}

export interface QueueWorkerOptions<T, R> {
  /** The queue's name. */
  queue: string;
  /** Every job's data is parsed with it first: a job it refuses fails at once (`invalid_job`), never retried. */
  schema: z.ZodType<T>;
  /** The processor, with the parsed data. Its return value is the job's return value. */
  process(job: Job<T, R>, data: T, context: JobContext): Promise<R>;
  /** For BullMQ's blocking connection (an ioredis instance needs maxRetriesPerRequest: null). */
  connection: ConnectionOptions;
  /** BullMQ's key prefix, also the prefix of cancel requests. */
  prefix: string;
  logger: Logger;
  /**
   * For cancel requests (src/sessions/cancellation.ts): a flag checked before each job starts and a pub/sub
   * message that aborts a running one or wakes a delayed one. Without it, jobs are cancelled only by shutdown.
   * @default undefined
   */
  redis?: RedisClient;
  /** Jobs at once in this process. @default 1 */
  concurrency?: number;
  /**
   * Whether an error is worth another attempt (with the job's backoff) when it happens before `markStarted()`;
   * after it, and after the job's last attempt, every failure is final.
   * @default isTransient (runners/failure-message.ts): RedisClient and git errors, GitHub 5xx and 429, unknown errors
   */
  isTransient?: (error: unknown) => boolean;
  /** Extra fields on every log line of a job (repository, thread...). @default none */
  logFields?: (data: T) => Record<string, unknown>;
  /**
   * Told of a job BullMQ failed without running it: one whose worker stopped while running it more often than
   * `maxStalledCount` allows, which BullMQ fails when it is next taken, never calling the processor (so `onFailure`
   * handlers never hear of it). `interruptions`: how many times its worker stopped under it. @default none
   */
  onAbandoned?: (job: Job<T, R>, data: T, interruptions: number) => Promise<void>;
  /** How long `close()` lets running jobs finish before they are cancelled. @default 25_000 ms */
  graceMs?: number;
  /**
   * Passed on to BullMQ's Worker (lockDuration, stalledInterval, limiter...).
   * @default { maxStalledCount: 1 }: a job whose worker died twice while running it fails instead of starting again
   */
  workerOptions?: Partial<Omit<WorkerOptions, 'connection' | 'prefix' | 'concurrency' | 'autorun'>>;
}

/** BullMQ's lock on a running job and its check for expired ones (WRENCH_JOB_LOCK_SECONDS, WRENCH_STALLED_CHECK_SECONDS). */
export type JobLockOptions = Required<Pick<WorkerOptions, 'lockDuration' | 'stalledInterval'>>;

export interface QueueWorker<T, R> {
  worker: Worker<T, R>;
  /**
   * Stops taking jobs; running ones may finish within `graceMs` (default: the `graceMs` option), then their
   * signals are aborted with `ShutdownSignal` (their processors keep the work done). Resolves once no processor
   * of this worker runs (BullMQ may still be recording how they ended and closing its connections).
   */
  stopJobs(graceMs?: number): Promise<void>;
  /** `stopJobs`, then waits for BullMQ's worker and the worker's own connections to close. */
  close(graceMs?: number): Promise<void>;
}

/** A job whose data its queue's schema refuses: a bug in whoever added it, never worth another attempt. */
export class InvalidJobError extends UnrecoverableError {
  readonly code = 'invalid_job';
  constructor(queue: string, error: z.ZodError) {
    const issues = error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.map(String).join('.') || 'data'}: ${issue.message}`)
      .join('; ');
    super(`invalid_job: the ${queue} job's data does not match its schema (${issues})`);
  }
}

/** BullMQ's own errors that move a job elsewhere (delayed, waiting for children, rate limited): not failures. */
export function isQueueControlFlow(error: unknown): boolean {
  return error instanceof DelayedError || error instanceof WaitingChildrenError || error instanceof WaitingError || error instanceof RateLimitError;
}

/**
 * One typed worker under every queue: parses each job with the queue's schema, applies the transient-or-final
 * rule (transient failures before `markStarted()` are retried with the job's backoff; everything else fails for
 * good with UnrecoverableError), aborts a job's signal when it is cancelled, and shuts down with a grace.
 */
export async function startQueueWorker<T, R>(options: QueueWorkerOptions<T, R>): Promise<QueueWorker<T, R>> {
  const running = new Map<string, AbortController>();
  const claims = new Map<string, JobClaim>();
  const whenIdle = new Set<() => void>();
  const transient = options.isTransient ?? isTransient;
  const cancellation = options.redis ? new Cancellation(options.redis, options.prefix) : undefined;
  // Only for finding jobs: the queue's settings (its events stream's length) are createQueues' to write.
  const queue = options.redis ? new Queue<T, R>(options.queue, { connection: options.redis, prefix: options.prefix, skipMetasUpdate: true }) : undefined;
  queue?.on('error', (error) => {
    if (!isConnectionError(error)) options.logger.error({ err: error, queue: options.queue }, 'queue error');
  });

  const cancelled = async (jobId: string) => new RunCancelled((await cancellation?.requestedBy(jobId).catch(() => undefined)) ?? 'someone');
  const unsubscribe = await cancellation?.subscribe(async (jobId) => {
    const controller = running.get(jobId);
    if (controller) return controller.abort(await cancelled(jobId));
    // Waiting (delayed) here: wake it, so that it sees the request now rather than when its wait is over.
    const job = await queue?.getJob(jobId).catch(() => undefined);
    if (job && (await job.isDelayed().catch(() => false))) await job.promote().catch(() => undefined);
  });

  const processor = async (job: Job<T, R>, token?: string, bullSignal?: AbortSignal): Promise<R> => {
    const jobId = job.id ?? '';
    const parsed = options.schema.safeParse(job.data);
    if (!parsed.success) {
      const error = new InvalidJobError(options.queue, parsed.error);
      options.logger.error({ jobId, queue: options.queue, code: error.code, issues: parsed.error.issues }, 'malformed job');
      throw error;
    }
    const data = parsed.data;
    const log = options.logger.child({ jobId, queue: options.queue, ...options.logFields?.(data) });
    const controller = new AbortController();
    running.set(jobId, controller);
    const claim = bullJobClaim(job, token, worker.opts.lockDuration ?? 30_000, (lost) => {
      log.warn({ effect: lost.effect }, 'this attempt no longer holds the job (its lock expired): it stops without acting');
      controller.abort(lost);
    });
    claims.set(jobId, claim);
    let started = false;
    const failureHandlers: Array<(error: unknown, final: boolean) => Promise<void> | void> = [];
    const context: JobContext = {
      jobId,
      token,
      signal: bullSignal ? AbortSignal.any([controller.signal, bullSignal]) : controller.signal,
      log,
      claim,
      markStarted: () => {
        started = true;
      },
      onFailure: (handler) => failureHandlers.push(handler),
    };
    try {
      if (await cancellation?.isRequested(jobId)) controller.abort(await cancelled(jobId));
      const result = await options.process(job, data, context);
      if (claim.lost) throw claim.lost;
      return result;
    } catch (error) {
      if (isQueueControlFlow(error)) throw error;
      const lost = lostClaimOf(error, context.signal);
      if (lost) {
        log.warn(
          { effect: lost.effect, why: describeError(error).slice(0, 200) },
          'lost its claim on the job: another attempt has it; this one stops without acting',
        );
        // Not a failure of the job, which is another attempt's now: BullMQ's DelayedError leaves it as it is.
        throw new DelayedError();
      }
      const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      const final = started || lastAttempt || error instanceof UnrecoverableError || !transient(error);
      const reason: unknown = context.signal.aborted ? context.signal.reason : undefined;
      // A person's stop is no failure: the error is how the work gave up once its signal was aborted.
      if (reason instanceof RunCancelled) log.info({ by: reason.by, why: describeError(error).slice(0, 200) }, 'job stopped');
      else log[final ? 'error' : 'warn']({ err: error, final, attempt: job.attemptsMade + 1 }, 'job failed');
      for (const handler of failureHandlers) {
        await Promise.resolve()
          .then(() => handler(error, final))
          .catch((e) => log.error({ err: e }, 'could not report the failure'));
      }
      if (!final) throw error;
      throw error instanceof UnrecoverableError ? error : new UnrecoverableError(describeError(error));
    } finally {
      running.delete(jobId);
      claims.delete(jobId);
      if (running.size === 0) for (const resolve of whenIdle) resolve();
    }
  };

  const worker = new Worker<T, R>(options.queue, processor, {
    maxStalledCount: 1,
    ...options.workerOptions,
    connection: options.connection,
    prefix: options.prefix,
    concurrency: options.concurrency ?? 1,
  });
  worker.on('error', (error) => {
    // A lock BullMQ could not renew is said once, by the lock's job, below.
    if (!isConnectionError(error) && !/^could not renew lock for job /.test(error.message))
      options.logger.error({ err: error, queue: options.queue }, 'worker error');
  });
  // The lock of a running job expired (this process was paused or starved past its duration): the job is, or soon will
  // be, another attempt's. This attempt stops now rather than at its next outside effect.
  worker.on('lockRenewalFailed', (jobIds) => {
    for (const jobId of jobIds) claims.get(jobId)?.lose('lock renewal');
  });
  worker.on('failed', (job, error) => {
    // The processor's own failures were told already; this is one BullMQ decided before any processor ran.
    if (!job?.deferredFailure || error.message !== job.deferredFailure) return;
    const parsed = options.schema.safeParse(job.data);
    const log = options.logger.child({ jobId: job.id, queue: options.queue, ...(parsed.success ? options.logFields?.(parsed.data) : {}) });
    const interruptions = (options.workerOptions?.maxStalledCount ?? 1) + 1;
    log.error({ reason: job.deferredFailure, interruptions }, 'job failed (final): its worker stopped while running it too often');
    if (!parsed.success || !options.onAbandoned) return;
    void options.onAbandoned(job, parsed.data, interruptions).catch((e: unknown) => log.error({ err: e }, 'could not report the failure'));
  });

  let closing: Promise<void> | undefined;
  let graceTimer: NodeJS.Timeout | undefined;
  const stopJobs = async (graceMs = options.graceMs ?? 25_000) => {
    if (!closing) {
      closing = worker.close();
      graceTimer = setTimeout(() => {
        for (const controller of running.values()) controller.abort(new ShutdownSignal());
      }, graceMs);
    }
    if (running.size === 0) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        whenIdle.delete(done);
        resolve();
      };
      whenIdle.add(done);
    });
  };
  return {
    worker,
    stopJobs,
    async close(graceMs) {
      await stopJobs(graceMs);
      await closing;
      clearTimeout(graceTimer);
      await unsubscribe?.();
      await queue?.close();
    },
  };
}
