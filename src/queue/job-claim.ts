import type { Job } from 'bullmq';

/**
 * This attempt no longer holds its job: its BullMQ lock expired (the process was paused or starved past the lock's
 * duration) and the job was handed to another attempt, or is about to be. The attempt stops without acting and without
 * a reply: whoever holds the job now pushes and answers. Control flow, never shown to people.
 */
export class LostClaimError extends Error {
  readonly code = 'lost_claim';
  constructor(
    readonly jobId: string,
    /** The outside effect that was about to happen (or `lock renewal`, when BullMQ noticed first). */
    readonly effect: string,
  ) {
    super(`lost_claim: job ${jobId} is no longer held by this attempt (before: ${effect})`);
    this.name = 'LostClaimError';
  }
}

/** The Redis key BullMQ locks an active job with, and the value this attempt holds it with: checked inside a Lua script. */
export interface ClaimFence {
  key: string;
  token: string;
}

/**
 * The claim of one attempt on its job. Every outside effect of a run (a push, a pull request, a reply, a note) passes a
 * check of it first, so that an attempt that lost its job (see `LostClaimError`) never acts a second time.
 */
export interface JobClaim {
  /**
   * Throws `LostClaimError` unless this attempt still holds the job; if it does, the lock is renewed for its full
   * duration in the same step (BullMQ's own extendLock script: token compared and lock extended atomically), so the
   * effect that follows has that long before anyone else may take the job.
   */
  hold(effect: string): Promise<void>;
  /** For checks made inside another Lua script (the Slack outbox's): the lock key and this attempt's token. */
  readonly fence: ClaimFence | undefined;
  /** Set once the claim is known to be lost (a failed `hold`, or BullMQ's lock renewal failing). */
  readonly lost: LostClaimError | undefined;
  /** Records that the claim is lost (BullMQ could not renew the lock); later holds throw at once. */
  lose(effect: string): LostClaimError;
}

/** The claim of a BullMQ job's attempt holding `token`; without a token (a job run outside a worker) every hold passes. */
export function bullJobClaim(
  job: Pick<Job, 'id' | 'extendLock' | 'queueQualifiedName'>,
  token: string | undefined,
  lockDurationMs: number,
  /** Told once, when the claim is found lost (the worker aborts the run's signal). */
  onLost?: (lost: LostClaimError) => void,
): JobClaim {
  const jobId = job.id ?? '';
  let lost: LostClaimError | undefined;
  const lose = (effect: string) => {
    if (lost) return lost;
    lost = new LostClaimError(jobId, effect);
    onLost?.(lost);
    return lost;
  };
  return {
    fence: token ? { key: `${job.queueQualifiedName}:${jobId}:lock`, token } : undefined,
    get lost() {
      return lost;
    },
    lose,
    async hold(effect) {
      if (lost) throw lost;
      if (!token) return;
      if ((await job.extendLock(token, lockDurationMs)) !== 1) throw lose(effect);
    },
  };
}

/** The error a run stopped with when it lost its claim: thrown by a hold, or the reason its signal was aborted. */
export function lostClaimOf(error: unknown, signal: AbortSignal): LostClaimError | undefined {
  if (error instanceof LostClaimError) return error;
  return signal.aborted && signal.reason instanceof LostClaimError ? signal.reason : undefined;
}
