import { createHash } from 'node:crypto';
import { channelRepositories, type ConfigFile, type ConfigSchedule } from '../config/config-file.js';
import { repoRefOf } from '../repository/resolve-repository.js';
import type { Logger } from '../logging/logger.js';
import type { ScheduleBook } from './schedule-queue.js';
import type { Schedule } from './schedule-store.js';

/** A config schedule's id: from what it does, so the same entry keeps its id (and its paused state) across restarts. */
export function configScheduleId(entry: ConfigSchedule): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([entry.channel, entry.cron, entry.timezone, entry.instruction, entry.repo ?? '']))
    .digest('hex');
  return `config-${digest.slice(0, 8)}`;
}

function recordOf(entry: ConfigSchedule, file: ConfigFile): Schedule {
  const channel = file.channels[entry.channel];
  const fullName = entry.repo ?? channelRepositories(channel)[0] ?? '';
  return {
    id: configScheduleId(entry),
    source: 'config',
    channel: entry.channel,
    cron: entry.cron,
    timezone: entry.timezone,
    when: `cron \`${entry.cron}\``,
    instruction: entry.instruction,
    repo: { ...repoRefOf(fullName), ...(channel?.baseBranch ? { baseBranch: channel.baseBranch } : {}) },
    creator: entry.owner,
    language: 'en',
    state: 'active',
    failures: 0,
    createdAt: new Date().toISOString(),
  };
}

/**
 * Makes Redis hold wrench.config.yml's schedules: a new entry gets its record and job scheduler, one still there keeps
 * its record (paused stays paused), one gone from the file loses both. Every process may do it at start: each step is
 * idempotent, so two processes starting at once leave one scheduler per schedule.
 */
export async function syncConfigSchedules(book: ScheduleBook, file: ConfigFile, logger: Logger): Promise<void> {
  const wanted = new Map(file.schedules.map((entry) => [configScheduleId(entry), entry]));
  for (const existing of await book.store.all()) {
    if (existing.source !== 'config' || wanted.has(existing.id)) continue;
    await book.deactivate(existing.id);
    await book.store.remove(existing.id);
    logger.info({ schedule: existing.id }, 'removed a schedule no longer in wrench.config.yml');
  }
  for (const [id, entry] of wanted) {
    const fresh = recordOf(entry, file);
    const kept = await book.store.get(id);
    // The file decides what it does and for whom; Redis keeps how it stands (paused, its thread, its last run).
    const schedule: Schedule = kept ? { ...kept, repo: fresh.repo, creator: fresh.creator } : fresh;
    await book.store.save(schedule);
    if (schedule.state === 'active') await book.activate(schedule);
  }
  if (wanted.size) logger.info({ schedules: [...wanted.keys()] }, 'config schedules in place');
}
