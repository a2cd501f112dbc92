/** Block Kit action and view ids Wrench listens for. */
export const ACTIONS = {
  addDetails: 'wrench_add_details',
  startAnyway: 'wrench_start_anyway',
  cancelRun: 'wrench_cancel_run',
} as const;

/** The suggested answers to an agent's question: one button each, numbered (`wrench_answer_0` ... `wrench_answer_4`). */
export const ANSWER_ACTION_PREFIX = 'wrench_answer_';
/** The suggested answers, and `wrench_answer_decide`: "decide yourself" (the agent goes on with its own default). */
export const ANSWER_ACTION = /^wrench_answer_(\d+|decide)$/;
export const DECIDE_ACTION = `${ANSWER_ACTION_PREFIX}decide`;

/** What an answer button carries: the paused run's question, which suggested answer it is, and its thread. */
export interface AnswerValue extends ThreadRef {
  pauseId: string;
  /** Which suggested answer, or `decide`: let the agent choose. */
  index: number | 'decide';
}

export const encodeAnswerValue = (value: AnswerValue) => JSON.stringify({ p: value.pauseId, i: value.index, c: value.channel, t: value.threadTs });

export function decodeAnswerValue(raw: string | undefined): AnswerValue | null {
  try {
    const parsed = JSON.parse(raw ?? '') as { p?: unknown; i?: unknown; c?: unknown; t?: unknown };
    const str = (v: unknown) => typeof v === 'string' && v.length > 0 && v.length <= 200;
    const index = parsed.i === 'decide' || (Number.isInteger(parsed.i) && (parsed.i as number) >= 0) ? (parsed.i as number | 'decide') : undefined;
    return str(parsed.p) && str(parsed.c) && str(parsed.t) && index !== undefined
      ? { pauseId: parsed.p as string, index, channel: parsed.c as string, threadTs: parsed.t as string }
      : null;
  } catch {
    return null;
  }
}

/** The buttons asking which of a channel's repositories a request is for: one each, numbered (`wrench_repository_0` ...). */
export const REPOSITORY_ACTION_PREFIX = 'wrench_repository_';
export const REPOSITORY_ACTION = /^wrench_repository_\d+$/;

/** What a repository button carries: its thread and the repository (`owner/name`) it chooses. */
export interface RepositoryChoiceValue extends ThreadRef {
  repository: string;
}

export const encodeRepositoryChoice = (value: RepositoryChoiceValue) => JSON.stringify({ c: value.channel, t: value.threadTs, r: value.repository });

export function decodeRepositoryChoice(raw: string | undefined): RepositoryChoiceValue | null {
  try {
    const parsed = JSON.parse(raw ?? '') as { c?: unknown; t?: unknown; r?: unknown };
    const str = (v: unknown) => typeof v === 'string' && v.length > 0 && v.length <= 200;
    return str(parsed.c) && str(parsed.t) && typeof parsed.r === 'string' && REPOSITORY.test(parsed.r)
      ? { channel: parsed.c as string, threadTs: parsed.t as string, repository: parsed.r }
      : null;
  } catch {
    return null;
  }
}

export const VIEWS = {
  clarify: 'wrench_clarify',
} as const;

/** Identifies a thread in button values and modal metadata. */
export interface ThreadRef {
  channel: string;
  threadTs: string;
}

export const encodeThreadRef = (ref: ThreadRef) => JSON.stringify({ c: ref.channel, t: ref.threadTs });

export function decodeThreadRef(value: string | undefined): ThreadRef | null {
  try {
    const parsed = JSON.parse(value ?? '') as { c?: unknown; t?: unknown };
    return typeof parsed.c === 'string' && typeof parsed.t === 'string' ? { channel: parsed.c, threadTs: parsed.t } : null;
  } catch {
    return null;
  }
}

/** The App Home's controls: filters, pages and the Cancel button of each running run. */
export const HOME_ACTIONS = {
  repository: 'wrench_home_repository',
  outcome: 'wrench_home_outcome',
  page: 'wrench_home_page',
  cancel: 'wrench_home_cancel',
} as const;

/** The outcomes a person can filter their runs by, with how App Home names them. */
export const RUN_OUTCOMES: Record<string, string> = {
  pr_opened: 'PR opened',
  pr_updated: 'PR updated',
  answered: 'Answered',
  reported: 'Triage reported',
  stopped: 'Stopped early',
  waiting: 'Asked a question',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/** What the Home tab shows: kept in the view's private_metadata between its controls. */
export interface HomeState {
  repository?: string;
  outcome?: string;
  page: number;
}

export const encodeHomeState = (state: HomeState) => JSON.stringify({ r: state.repository, o: state.outcome, p: state.page });

/** A state from Slack's payload, every field checked; anything unexpected falls back to the first, unfiltered page. */
export function decodeHomeState(raw: string | undefined): HomeState {
  try {
    const parsed = JSON.parse(raw ?? '') as { r?: unknown; o?: unknown; p?: unknown };
    return {
      repository: typeof parsed.r === 'string' && REPOSITORY.test(parsed.r) ? parsed.r : undefined,
      outcome: typeof parsed.o === 'string' && Object.hasOwn(RUN_OUTCOMES, parsed.o) ? parsed.o : undefined,
      page: Number.isInteger(parsed.p) && (parsed.p as number) >= 0 && (parsed.p as number) < 10_000 ? (parsed.p as number) : 0,
    };
  } catch {
    return { page: 0 };
  }
}

/** The owner/name of a repository as a filter value. */
export const REPOSITORY = /^[A-Za-z0-9_.-]{1,100}\/[A-Za-z0-9_.-]{1,100}$/;

/** A Cancel button on the Home tab: the run and its thread. */
export interface HomeCancelValue extends ThreadRef {
  jobId: string;
}

export const encodeHomeCancel = (value: HomeCancelValue) => JSON.stringify({ c: value.channel, t: value.threadTs, j: value.jobId });

export function decodeHomeCancel(raw: string | undefined): HomeCancelValue | null {
  try {
    const parsed = JSON.parse(raw ?? '') as { c?: unknown; t?: unknown; j?: unknown };
    const str = (v: unknown) => typeof v === 'string' && v.length > 0 && v.length <= 200;
    return str(parsed.c) && str(parsed.t) && str(parsed.j) ? { channel: parsed.c as string, threadTs: parsed.t as string, jobId: parsed.j as string } : null;
  } catch {
    return null;
  }
}
