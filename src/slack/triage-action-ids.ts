/** Block Kit action ids of triage reports and incident threads (matched by prefix: revert buttons are numbered). */
export const TRIAGE_ACTIONS = {
  openFixPr: 'wrench_triage_fix',
  revert: 'wrench_triage_revert',
  dismiss: 'wrench_triage_dismiss',
  retriage: 'wrench_triage_retriage',
} as const;

/** What a triage button carries: the triage run, and for a revert the full sha; for re-triage the incident. */
export interface TriageActionValue {
  triageId?: string;
  sha?: string;
  incidentId?: string;
}

export const encodeTriageValue = (value: TriageActionValue) => JSON.stringify({ t: value.triageId, s: value.sha, i: value.incidentId });

export function decodeTriageValue(raw: string | undefined): TriageActionValue | null {
  try {
    const parsed = JSON.parse(raw ?? '') as { t?: unknown; s?: unknown; i?: unknown };
    const str = (v: unknown) => (typeof v === 'string' && v.length > 0 && v.length <= 200 ? v : undefined);
    const value = { triageId: str(parsed.t), sha: str(parsed.s), incidentId: str(parsed.i) };
    return value.triageId || value.incidentId ? value : null;
  } catch {
    return null;
  }
}
