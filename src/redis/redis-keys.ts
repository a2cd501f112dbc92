/**
 * Every Redis key Wrench writes, in one place. All live under the queue prefix (WRENCH_QUEUE_PREFIX), so several
 * installations (or test runs) can share one Redis. BullMQ's own keys are made by BullMQ under the same prefix.
 */
export function redisKeys(prefix: string) {
  return {
    /** A Slack event id, claimed once across web processes (Slack redelivers unacknowledged events). */
    slackEvent: (eventId: string) => `${prefix}:slack-event:${eventId}`,
    /** Event id -> a mention as Slack sent it, from before its acknowledgement until it is handled. */
    slackIntake: `${prefix}:slack-intake`,
    /** Slack's agent methods a workspace refused (method -> Slack's error), so it gets the status card instead. */
    slackSurfaces: (team: string) => `${prefix}:slack-surfaces:${team}`,
    /** Team-wide token bucket of status-card updates (chat.update). */
    slackUpdates: (team: string) => `${prefix}:slack-updates:${team}`,
    /** A thread's session document. */
    threadSession: (channel: string, threadTs: string) => `${prefix}:thread:${channel}:${threadTs}`,
    /** A thread whose pull request was closed without merging, kept as it was so a reopened pull request resumes it. */
    closedThreadSession: (channel: string, threadTs: string) => `${prefix}:thread-closed:${channel}:${threadTs}`,
    /** A pull request Wrench opened that was closed without merging -> its Slack thread. */
    closedPullRequestThread: (owner: string, repo: string, number: number) => `${prefix}:pull-closed:${owner}/${repo}#${number}`.toLowerCase(),
    /** A pull request Wrench opened -> its Slack thread. */
    pullRequestThread: (owner: string, repo: string, number: number) => `${prefix}:pull:${owner}/${repo}#${number}`.toLowerCase(),
    /** The branch of a pull request Wrench opened -> its number (commit statuses name branches, not pull requests). */
    branchPullRequest: (owner: string, repo: string, branch: string) => `${prefix}:pull-branch:${owner}/${repo}:${branch}`.toLowerCase(),
    /** A cancel request for a job (value: who asked). */
    cancelRequest: (jobId: string) => `${prefix}:cancel:${jobId}`,
    /** Messages from the thread for a running job's agent, drained before each model call (src/sessions/steering-inbox.ts). */
    steering: (jobId: string) => `${prefix}:steer:${jobId}`,
    /** The pub/sub channel of cancel requests. */
    cancelChannel: `${prefix}:cancel`,
    /** The pub/sub channel of branches GitHub says moved (push webhooks): workers bring their pooled trees up to date. */
    branchMovedChannel: `${prefix}:branch-moved`,
    /** The jobs of a queue parked until one of its jobs ends (runners/job-waits.ts). */
    jobWaiters: (queue: string, jobId: string) => `${prefix}:waits:${queue}:${jobId}`,
    /** A run paused on the agent's question: its conversation (src/questions/), and how the question was settled. */
    pausedRun: (pauseId: string) => `${prefix}:question:${pauseId}`,
    questionSettled: (pauseId: string) => `${prefix}:question:${pauseId}:settled`,
    /** Run slots (sorted sets of leases) per thread, globally, per repository and per user. */
    runSlots: {
      thread: (thread: string) => `${prefix}:slots:thread:${thread}`,
      global: `${prefix}:slots:global`,
      repository: (repository: string) => `${prefix}:slots:repo:${repository}`,
      user: (user: string) => `${prefix}:slots:user:${user}`,
    },
    /**
     * The fleet's shared model rate budget (src/agent/model-budget.ts): the calls of the window, the learnt limits and
     * pause, the calls waiting in line (by arrival) and when each last asked.
     */
    modelBudget: (model: string) => ({
      window: `${prefix}:model-budget:${model}:window`,
      state: `${prefix}:model-budget:${model}:state`,
      line: `${prefix}:model-budget:${model}:line`,
      waiting: `${prefix}:model-budget:${model}:waiting`,
    }),
    /**
     * Runs whose thread waits for their last word (src/slack/run-watchdog.ts): job ids scored by when the watchdog says
     * so if it has not come, and job id -> the run's thread and budget.
     */
    runWatch: {
      due: `${prefix}:run-watch:due`,
      runs: `${prefix}:run-watch:runs`,
    },
    outbox: {
      /** The messages waiting for one thread, in order. */
      queue: (thread: string) => `${prefix}:outbox:q:${thread}`,
      /** Message key -> Slack ts of what was delivered in one thread. */
      delivered: (thread: string) => `${prefix}:outbox:ts:${thread}`,
      /** Key -> how a streamed message stands in one thread ('stream', 'stopping', 'stopped' or 'message' where Slack did not stream). */
      streams: (thread: string) => `${prefix}:outbox:streams:${thread}`,
      /** Stream key -> a paused run's message as it reads once its question is settled (`ThreadOutbox.settleQuestion`). */
      settledForms: (thread: string) => `${prefix}:outbox:settled:${thread}`,
      /** Key -> 'queued' | 'given-up' of the messages queued once (`postOnce`) in one thread. */
      once: (thread: string) => `${prefix}:outbox:once:${thread}`,
      /** Threads with messages waiting, scored by the time of their next attempt. */
      due: `${prefix}:outbox:due`,
      /** The one deliverer of a thread at a time. */
      lock: (thread: string) => `${prefix}:outbox:lock:${thread}`,
      /** The newest messages given up on. */
      undeliverable: `${prefix}:outbox:undeliverable`,
      /** How many messages were given up on in all. */
      undeliverableCount: `${prefix}:outbox:undeliverable:count`,
      /** Thread and stored item -> how often its bookkeeping failed (and whether Slack had taken it). */
      trouble: `${prefix}:outbox:trouble`,
      /** The newest items set aside because their bookkeeping kept failing, and how many in all. */
      quarantine: `${prefix}:outbox:quarantine`,
      quarantineCount: `${prefix}:outbox:quarantine:count`,
    },
    /** A run's record, and (with `part`) its entries. */
    runLog: (...parts: string[]) => [prefix, 'runlog', ...parts].join(':'),
    /** A PagerDuty delivery, event or incident, claimed once. */
    pagerDutyClaim: (kind: 'delivery' | 'event' | 'incident', id: string) => `${prefix}:pd-claim:${kind}:${id}`,
    /** An incident's card and thread document. */
    incidentThread: (incidentId: string) => `${prefix}:pd:incident:${incidentId}`,
    /** The PagerDuty user Wrench writes notes as. */
    pagerDutyNoteAuthor: `${prefix}:pd:wrench-user`,
    /** A triage's report record, and who dismissed it. */
    triageRecord: (triageId: string) => `${prefix}:triage-record:${triageId}`,
    triageDismissed: (triageId: string) => `${prefix}:triage-record:${triageId}:dismissed`,
    /** A triage button press (action and message), handled once. */
    triageAction: (key: string) => `${prefix}:triage-action:${key}`,
    /** Host affinity: the workers holding a repository warm (sorted set, scores are heartbeat expiries), a worker's free task slots, and when a busy one expects to free one. */
    affinity: {
      warm: (repository: string) => `${prefix}:affinity:warm:${repository}`,
      room: (host: string) => `${prefix}:affinity:room:${host}`,
      frees: (host: string) => `${prefix}:affinity:frees:${host}`,
    },
    /** A GitHub webhook delivery id, handled once. */
    githubDelivery: (deliveryId: string) => `${prefix}:github:delivery:${deliveryId}`,
    /** An issue Wrench started on (value: the delivery that started it): one run per issue. */
    issueRun: (owner: string, repo: string, number: number) => `${prefix}:github:issue:${owner}/${repo}#${number}`.toLowerCase(),
    /** The fix-round decision for one head commit of a pull request (with `baseChecks`: "fails on the base too" said once). */
    fixDecision: (owner: string, repo: string, number: number, headSha: string, baseChecks?: string) =>
      `${`${prefix}:github:fix:${owner}/${repo}#${number}:${headSha}`.toLowerCase()}${baseChecks === undefined ? '' : `:base:${baseChecks}`}`,
    /** A review (its body and every comment, each its own event) answered by one run: the delivery that claimed it. */
    reviewClaim: (owner: string, repo: string, number: number, reviewId: number) =>
      `${prefix}:github:review:${owner}/${repo}#${number}:${reviewId}`.toLowerCase(),
    /** How many fix rounds a pull request has had. */
    fixRounds: (owner: string, repo: string, number: number) => `${prefix}:github:fix-rounds:${owner}/${repo}#${number}`.toLowerCase(),
    /** The checks a pull request's last fix round set out to fix, until the thread has heard they pass again. */
    fixWatch: (owner: string, repo: string, number: number) => `${prefix}:github:fix-watch:${owner}/${repo}#${number}`.toLowerCase(),
    /** What a run asked for on GitHub put there at pickup (👀 and the "working on it" reply), for its answer to replace. */
    githubAck: (jobId: string) => `${prefix}:github:ack:${jobId}`,
    /** A check's pass after a fix round, told once per head commit. */
    fixPassTold: (owner: string, repo: string, number: number, headSha: string, check: string) =>
      `${prefix}:github:fix-pass:${owner}/${repo}#${number}:${headSha}:${check}`.toLowerCase(),
    /** Recurring work (src/schedules/): each schedule's record, the set of their ids, and the counter that numbers them. */
    schedule: (id: string) => `${prefix}:schedule:${id}`,
    schedules: `${prefix}:schedules`,
    scheduleNumbers: `${prefix}:schedule-numbers`,
    /** One occurrence of a schedule (its fire time, ms): claimed once, with the thread its run went to. */
    scheduleOccurrence: (id: string, occurrence: number) => `${prefix}:schedule-occurrence:${id}:${occurrence}`,
    /** Held while one process handles an occurrence of the schedule, so two occurrences never both start a run. */
    scheduleTurn: (id: string) => `${prefix}:schedule-turn:${id}`,
  };
}

export type RedisKeys = ReturnType<typeof redisKeys>;
