import type { Redis } from 'ioredis';
import { z } from 'zod';

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
  private transactions: Redis | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  close(): void {
    this.transactions?.disconnect();
  }

  key(incidentId: string): string {
    return `${this.prefix}:pd:incident:${incidentId}`;
  }

  async get(incidentId: string): Promise<IncidentThread | null> {
    const raw = await this.redis.get(this.key(incidentId));
    return raw ? incidentThreadSchema.parse(JSON.parse(raw)) : null;
  }

  /** Reads, changes and writes atomically; `change` returns null to leave the document as it is. */
  update(incidentId: string, change: (current: IncidentThread | null) => IncidentThread | null): Promise<IncidentThread | null> {
    const next = this.queue.then(() => this.transact(incidentId, change));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async transact(incidentId: string, change: (current: IncidentThread | null) => IncidentThread | null): Promise<IncidentThread | null> {
    const key = this.key(incidentId);
    const connection = (this.transactions ??= this.redis.duplicate());
    for (let attempt = 0; attempt < 20; attempt++) {
      await connection.watch(key);
      let current: IncidentThread | null;
      let next: IncidentThread | null;
      try {
        const raw = await connection.get(key);
        current = raw ? incidentThreadSchema.parse(JSON.parse(raw)) : null;
        next = change(current ? structuredClone(current) : null);
      } catch (error) {
        await connection.unwatch();
        throw error;
      }
      if (!next) {
        await connection.unwatch();
        return current;
      }
      const result = await connection.multi().set(key, JSON.stringify(incidentThreadSchema.parse(next)), 'EX', TTL_SECONDS).exec();
      if (result) return next;
    }
    throw new Error(`Could not update the thread of incident ${incidentId}: too much contention.`);
  }
}
