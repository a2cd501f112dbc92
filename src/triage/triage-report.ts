import { z } from 'zod';

export const CONFIDENCES = ['low', 'medium', 'high'] as const;
export type Confidence = (typeof CONFIDENCES)[number];

const evidenceSchema = z.object({
  claim: z.string().min(1).describe('What this piece of evidence shows, in one sentence.'),
  kind: z
    .enum(['file', 'commit', 'pull_request', 'alert', 'log', 'metric', 'other'])
    .describe(
      'Where the evidence is: a file line, a commit, a merged pull request, an alert or a log entry of the incident, a metric (Prometheus) or log lines read with a monitoring tool.',
    ),
  ref: z
    .string()
    .min(1)
    .max(300)
    .describe(
      'file: path:line or path:start-end (e.g. src/cart.ts:88); commit: its sha; pull_request: its number (e.g. 42); alert or log: a short quote; metric: what changed, e.g. "errors 1/s -> 6/s at 14:40 UTC".',
    ),
  query: z
    .string()
    .min(1)
    .max(1000)
    .optional()
    .describe('metric: the PromQL you read (query_metrics); log read with a tool: the query or arguments you gave it.'),
  tool: z.string().min(1).max(100).optional().describe('metric or log: the tool that read it (query_metrics, or the MCP tool name).'),
  from: z.string().min(1).max(40).optional().describe('metric or log: start of the time range read (ISO 8601, UTC).'),
  to: z.string().min(1).max(40).optional().describe('metric or log: end of the time range read (ISO 8601, UTC).'),
});

/** The structured result the triage agent must finish with (the finish_task tool's input). */
export const triageReportSchema = z.object({
  whatIsGoingOn: z.string().min(1).describe('What is happening, from the incident data: symptoms, scope, since when. Two to four sentences.'),
  verdict: z
    .string()
    .min(1)
    .max(200)
    .describe('One line for the incident card, e.g. "Likely the null total introduced in abc1234 (high confidence)" or "No good lead yet".'),
  likelyCause: z
    .object({
      summary: z.string().min(1).describe('The likely cause in one or two sentences.'),
      confidence: z.enum(CONFIDENCES).describe('high: the evidence shows it; medium: it fits the evidence; low: plausible only.'),
      evidence: z
        .array(evidenceSchema)
        .default([])
        .describe('Every fact the cause rests on, each pointing at its source. Without evidence the cause is shown as a hypothesis.'),
    })
    .nullable()
    .describe('null when there is no good lead: say so rather than guess.'),
  suspectCommits: z
    .array(
      z.object({
        sha: z.string().regex(/^[0-9a-fA-F]{7,40}$/, { message: 'must be a commit sha (7 to 40 hex digits)' }),
        reason: z.string().min(1).describe('Why this commit is suspect, with the file and line it touches.'),
        confidence: z.enum(CONFIDENCES),
      }),
    )
    .max(10)
    .default([])
    .describe('Commits from the window that may have caused this, most likely first. Empty when none fits.'),
  ruledOut: z
    .array(z.object({ what: z.string().min(1), why: z.string().min(1) }))
    .default([])
    .describe('What you checked and excluded, and why.'),
  nextSteps: z.array(z.string().min(1)).default([]).describe('Concrete next steps for the responders, most useful first.'),
});

export type TriageReport = z.infer<typeof triageReportSchema>;
export type Evidence = z.infer<typeof evidenceSchema>;

/** The report as shown: a cause without evidence is a hypothesis of low confidence; no cause is "no good lead". */
export interface ShownTriageReport extends Omit<TriageReport, 'likelyCause'> {
  likelyCause: (NonNullable<TriageReport['likelyCause']> & { hypothesis: boolean }) | null;
  noGoodLead: boolean;
}

export function normalizeTriageReport(report: TriageReport): ShownTriageReport {
  const cause = report.likelyCause;
  if (!cause) return { ...report, suspectCommits: dedupeBySha(report.suspectCommits), likelyCause: null, noGoodLead: true };
  const hypothesis = cause.evidence.length === 0;
  return {
    ...report,
    suspectCommits: dedupeBySha(report.suspectCommits),
    likelyCause: { ...cause, confidence: hypothesis ? 'low' : cause.confidence, hypothesis },
    noGoodLead: false,
  };
}

function dedupeBySha<T extends { sha: string }>(items: T[]): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = item.sha.toLowerCase().slice(0, 7);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
