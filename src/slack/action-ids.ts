/** Block Kit action and view ids Wrench listens for. */
export const ACTIONS = {
  addDetails: 'wrench_add_details',
  startAnyway: 'wrench_start_anyway',
  cancelRun: 'wrench_cancel_run',
} as const;

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
