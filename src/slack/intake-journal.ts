import { mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../logging/logger.js';
import { parseMention, type MentionIntake } from './mention-intake.js';

/** One mention kept on the local disk: the signed body as received. */
export interface JournalEntry {
  eventId: string;
  receivedAt: string;
  raw: string;
  /** `pending`: not yet in Redis (replayed into the intake when Redis answers); `stored`: in Redis, watched until handled. */
  state: 'pending' | 'stored';
}

/** A stored entry is forgotten after this long whatever Redis says (Slack's own retries are over by then). */
const STORED_RETENTION_MS = 24 * 3600_000;

/**
 * Mentions kept on the web process's disk (`<data dir>/intake-journal/`), so an acknowledgement never depends on Redis
 * alone: each signed `app_mention` is written here (fsync'd, one file per event) before Slack hears 200, at the same
 * time as it goes to Redis (src/slack/mention-intake.ts). One Redis missed (down, hung, slower than the budget): the
 * entry stays `pending` and is written to Redis once it answers (at start-up and on the resumer's timer), then handled
 * once like any stored mention. Once in Redis it is `stored`, and kept until its mention is handled and its run has
 * ended: should Redis come back without its data (src/redis/redis-epoch.ts), what it lost is taken again from here.
 */
export class IntakeJournal {
  constructor(readonly dir: string) {}

  /** Keeps a mention durably (written, fsync'd, renamed into place); anything else is left alone. Resolves with its event id. */
  async keep(raw: string, state: JournalEntry['state'] = 'pending'): Promise<string | undefined> {
    const body = parseMention(raw);
    if (!body) return undefined;
    const eventId = body.event_id as string;
    const entry: JournalEntry = { eventId, receivedAt: new Date().toISOString(), raw, state };
    await this.write(state, eventId, JSON.stringify(entry));
    return eventId;
  }

  /** Now in Redis: watched until handled (a no-op for an entry another process already moved). */
  async markStored(eventId: string): Promise<void> {
    const from = this.file('pending', eventId);
    const line = await readFile(from, 'utf8').catch(() => undefined);
    if (line === undefined) return;
    const entry = parseEntry(line);
    if (!entry) return void (await rm(from, { force: true }));
    await this.write('stored', eventId, JSON.stringify({ ...entry, state: 'stored' }));
    await rm(from, { force: true });
  }

  /** Handled and ended (or too old to matter): forgotten. */
  async remove(eventId: string): Promise<void> {
    await Promise.all([rm(this.file('pending', eventId), { force: true }), rm(this.file('stored', eventId), { force: true })]);
  }

  /** Every entry kept, oldest first; unreadable files are removed. */
  async entries(state?: JournalEntry['state']): Promise<JournalEntry[]> {
    const states = state ? [state] : (['pending', 'stored'] as const);
    const found: JournalEntry[] = [];
    for (const s of states) {
      const names = await readdir(path.join(this.dir, s)).catch(() => [] as string[]);
      // A temporary file left by a process that died while writing it.
      for (const name of names.filter((n) => n.endsWith('.tmp'))) {
        const file = path.join(this.dir, s, name);
        if (await isOlderThan(file, 60_000)) await rm(file, { force: true });
      }
      for (const name of names.filter((n) => n.endsWith('.json'))) {
        const file = path.join(this.dir, s, name);
        const entry = parseEntry((await readFile(file, 'utf8').catch(() => '')) || '');
        if (entry) found.push({ ...entry, state: s });
        else if (await isOlderThan(file, 60_000)) await rm(file, { force: true });
      }
    }
    return found.sort((a, b) => a.receivedAt.localeCompare(b.receivedAt));
  }

  /** Pending entries written to Redis now (HSETNX: one already there is left as it is); resolves with how many. */
  async replay(intake: MentionIntake, logger: Logger): Promise<number> {
    let replayed = 0;
    for (const entry of await this.entries('pending')) {
      await intake.record(entry.raw);
      await this.markStored(entry.eventId);
      logger.warn(
        { eventId: entry.eventId, receivedAt: entry.receivedAt },
        'a mention kept in the local journal while Redis did not answer is now stored in Redis',
      );
      replayed += 1;
    }
    return replayed;
  }

  /** Stored entries whose mention `isOver` says is handled and whose run ended (or older than a day) are forgotten. */
  async prune(isOver: (eventId: string) => Promise<boolean>): Promise<void> {
    for (const entry of await this.entries('stored')) {
      if (Date.now() - Date.parse(entry.receivedAt) > STORED_RETENTION_MS || (await isOver(entry.eventId))) await this.remove(entry.eventId);
    }
  }

  private file(state: JournalEntry['state'], eventId: string): string {
    return path.join(this.dir, state, `${eventId.replace(/[^A-Za-z0-9_-]/g, '_')}.json`);
  }

  /** Written to a temporary file, fsync'd, renamed into place and the directory fsync'd: there whole, or not at all. */
  private async write(state: JournalEntry['state'], eventId: string, content: string): Promise<void> {
    const dir = path.join(this.dir, state);
    await mkdir(dir, { recursive: true });
    const target = this.file(state, eventId);
    const temporary = `${target}.${process.pid}.${Date.now()}.tmp`;
    const handle = await open(temporary, 'w', 0o600);
    try {
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, target);
    const directory = await open(dir, 'r');
    try {
      await directory.sync();
    } finally {
      await directory.close();
    }
  }
}

/** Where the journal lives in the data dir. */
export function intakeJournalDir(dataDir: string): string {
  return path.join(dataDir, 'intake-journal');
}

/**
 * Before Slack's 200: the mention goes to the local journal (fsync'd) and to Redis at once, Redis given `budgetMs`.
 * Either is enough to acknowledge it; it rejects only when neither kept it (the receiver then answers 503, so Slack
 * sends it again). Anything but a mention resolves at once.
 */
export async function keepMention(raw: string, stores: { intake: MentionIntake; journal: IntakeJournal }, logger: Logger, budgetMs: number): Promise<void> {
  if (!parseMention(raw)) return;
  const [journal, redis] = await Promise.allSettled([stores.journal.keep(raw), withinBudget(stores.intake.record(raw), budgetMs)]);
  if (redis.status === 'fulfilled') {
    if (journal.status === 'fulfilled' && journal.value) {
      await stores.journal.markStored(journal.value).catch((error: unknown) => logger.warn({ err: error }, 'could not mark a journalled mention as stored'));
    } else if (journal.status === 'rejected') logger.warn({ err: journal.reason }, 'could not keep a mention in the local journal (it is in Redis)');
    return;
  }
  if (journal.status === 'fulfilled') {
    logger.error(
      { err: redis.reason, eventId: journal.value },
      'could not store a Slack event in Redis before acknowledging it; kept in the local journal, stored in Redis once it answers',
    );
    return;
  }
  logger.error({ err: redis.reason, journal: String(journal.reason) }, 'could not store a Slack event in Redis nor in the local journal');
  throw redis.reason instanceof Error ? redis.reason : new Error(String(redis.reason));
}

function withinBudget<T>(work: Promise<T>, budgetMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis took longer than ${budgetMs} ms`)), budgetMs);
  });
  work.catch(() => undefined);
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

function parseEntry(line: string): Omit<JournalEntry, 'state'> | undefined {
  try {
    const entry = JSON.parse(line) as JournalEntry;
    return typeof entry.eventId === 'string' && typeof entry.raw === 'string' && typeof entry.receivedAt === 'string' ? entry : undefined;
  } catch {
    return undefined;
  }
}

async function isOlderThan(file: string, ms: number): Promise<boolean> {
  const info = await stat(file).catch(() => undefined);
  return !info || Date.now() - info.mtimeMs > ms;
}
