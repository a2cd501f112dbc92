import type { RedisClient } from '../redis/redis-connection.js';
import { z } from 'zod';
import { JsonDocumentStore } from '../redis/json-document-store.js';
import { redisKeys } from '../redis/redis-keys.js';

const TTL_SECONDS = 30 * 24 * 3600;

/** What the card of an incident shows and where it lives; one JSON document per incident in Redis. */
export const incidentThreadSchema = z.object({
  incidentId: z.string(),
  serviceId: z.string(),
  repo: z.string(),
  channel: z.string(),
  /** The card: a top-level message in the channel; its ts is also the thread's. */
  cardTs: z.string().optional(),
  number: z.number().nullish(),
  title: z.string(),
  status: z.string(),
  urgency: z.string().nullish(),
  priority: z.string().nullish(),
  service: z.string(),
  assignees: z.array(z.string()).default([]),
  htmlUrl: z.string().nullish(),
  createdAt: z.string().nullish(),
  /** The last lifecycle change, e.g. "Acknowledged by Alice". */
  lastChange: z.string().optional(),
  /** occurred_at of the newest event applied, so an older one arriving late changes nothing. */
  lastEventAt: z.string().optional(),
  /** One line from the latest triage. */
  verdict: z.string().optional(),
  /** Triage runs of this incident, oldest first. */
  triageIds: z.array(z.string()).default([]),
});

export type IncidentThread = z.infer<typeof incidentThreadSchema>;

/** Incident id -> its Slack card and thread, updated atomically (WATCH/MULTI) across processes. */
export class IncidentThreadStore {
  private readonly documents: JsonDocumentStore<typeof incidentThreadSchema>;

  constructor(
    redis: RedisClient,
    private readonly prefix: string,
  ) {
    this.documents = new JsonDocumentStore(redis, incidentThreadSchema, TTL_SECONDS);
  }

  close(): void {
    this.documents.close();
  }

  key(incidentId: string): string {
    return redisKeys(this.prefix).incidentThread(incidentId);
  }

  get(incidentId: string): Promise<IncidentThread | null> {
    return this.documents.get(this.key(incidentId));
  }

  /** Reads, changes and writes atomically; `change` returns null to leave the document as it is. */
  update(incidentId: string, change: (current: IncidentThread | null) => IncidentThread | null): Promise<IncidentThread | null> {
    return this.documents.update(this.key(incidentId), change);
  }
}
