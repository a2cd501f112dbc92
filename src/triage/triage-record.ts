import type { RedisClient } from '../redis/redis-connection.js';
import { redisKeys } from '../redis/redis-keys.js';
import type { ShownTriageReport } from './triage-report.js';
import type { MonitoringSummary } from '../monitoring/monitoring-summary.js';
import type { RepoLinks } from './evidence-links.js';

const TTL_SECONDS = 30 * 24 * 3600;

/** A suspect commit as shown: resolved to a full sha on the base branch when it could be. */
export interface Suspect {
  /** The full sha when resolved, else what the agent wrote. */
  sha: string;
  resolved: boolean;
  subject?: string;
  reason: string;
  confidence: 'low' | 'medium' | 'high';
}

/** One finished triage, kept so the buttons on its report know what they act on. */
export interface TriageRecord {
  triageId: string;
  repo: { owner: string; name: string };
  baseBranch: string;
  channel: string;
  threadTs: string;
  threadUrl?: string;
  incident?: { id: string; number?: number | null; title: string; htmlUrl?: string | null };
  /** The "@wrench triage: ..." text of a manual triage. */
  description?: string;
  /** The language the person asked for the triage in (a manual triage's reading); absent: English. */
  language?: string;
  report: ShownTriageReport;
  suspects: Suspect[];
  links: RepoLinks;
  /** The metrics' change points and what could not be read, when the service or channel has a monitoring source. */
  monitoring?: MonitoringSummary;
  /** The report messages in the thread (the last one holds the buttons), for records from before the outbox. */
  reportTs: string[];
  /** The thread outbox's keys of the report messages (the last one holds the buttons): `outbox.update` edits them. */
  reportKeys?: string[];
  createdAt: string;
}

/** The outbox key of part `index` of a triage's report. */
export const triageReportKey = (triageId: string, index: number) => `triage-report:${triageId}:${index}`;

export class TriageRecordStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {}

  private key(triageId: string): string {
    return redisKeys(this.prefix).triageRecord(triageId);
  }

  async save(record: TriageRecord): Promise<void> {
    await this.redis.set(this.key(record.triageId), JSON.stringify(record), 'EX', TTL_SECONDS);
  }

  async get(triageId: string): Promise<TriageRecord | null> {
    const raw = await this.redis.get(this.key(triageId));
    return raw ? (JSON.parse(raw) as TriageRecord) : null;
  }

  /** Marks the report dismissed once; false when someone already did. */
  async dismiss(triageId: string, user: string): Promise<boolean> {
    return (await this.redis.set(redisKeys(this.prefix).triageDismissed(triageId), user, 'EX', TTL_SECONDS, 'NX')) === 'OK';
  }

  async dismissedBy(triageId: string): Promise<string | null> {
    return this.redis.get(redisKeys(this.prefix).triageDismissed(triageId));
  }
}
