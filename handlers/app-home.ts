import type { WebClient } from '@slack/web-api';
import type { Config } from '../src/config/load-config.js';
import type { Logger } from '../src/logging/logger.js';
import type { RunLinks } from '../src/run-log/run-links.js';
import type { RunLogStore } from '../src/run-log/run-log-store.js';
import type { Redactor } from '../src/security/redact.js';
import { decodeHomeCancel, decodeHomeState, HOME_ACTIONS, REPOSITORY, RUN_OUTCOMES, type HomeState } from '../src/slack/action-ids.js';
import { appHomeView, HOME_PAGE_SIZE } from '../src/slack/app-home-view.js';
import { cancelThreadRuns } from './cancel-run.js';
import type { ScheduleBook } from '../src/schedules/schedule-queue.js';
import { formatRunTime } from '../src/schedules/schedule-times.js';
import type { HomeSchedule } from '../src/slack/app-home-view.js';
import type { HandlerDeps } from './handler-deps.js';

export interface AppHomeDeps {
  config: Config;
  runLog: RunLogStore;
  links: RunLinks | undefined;
  redact: Redactor;
  logger: Logger;
  /** Absent: App Home lists no schedules. */
  schedules?: ScheduleBook;
}

const WEEK_MS = 7 * 24 * 3600 * 1000;

async function weekTotals(runLog: RunLogStore, now: number) {
  const [current, previous] = await Promise.all([runLog.totals(now), runLog.totals(now - WEEK_MS)]);
  return { current, previous };
}

/** app_home_opened on the Home tab: publish the person's runs (keeping the filters they had), from the newest. */
export async function handleAppHomeOpened(
  input: { client: WebClient; user: string; tab?: string; privateMetadata?: string },
  deps: AppHomeDeps,
): Promise<void> {
  if (input.tab && input.tab !== 'home') return;
  await publishAppHome({ ...input, state: { ...decodeHomeState(input.privateMetadata), page: 0 } }, deps);
}

/** The person's running runs, one page of their runs as filtered, and (for admins) the week per channel and person. */
export async function publishAppHome(input: { client: WebClient; user: string; state: HomeState; notice?: string }, deps: AppHomeDeps): Promise<void> {
  const admin = deps.config.file.access.admins.includes(input.user);
  const { state } = input;
  const [running, list, repositories, week, schedules] = await Promise.all([
    deps.runLog.activeFor(input.user),
    deps.runLog.listFor(input.user, { repository: state.repository, outcome: state.outcome, offset: state.page * HOME_PAGE_SIZE, limit: HOME_PAGE_SIZE }),
    deps.runLog.repositoriesOf(input.user),
    admin ? weekTotals(deps.runLog, Date.now()) : Promise.resolve(undefined),
    homeSchedules(input.user, admin, deps.schedules),
  ]);
  const view = appHomeView({ running, list, state, repositories, notice: input.notice, week, schedules, runPageUrl: (id) => deps.links?.urlFor(id) });
  await input.client.views.publish({ user_id: input.user, view: deps.redact.deep(view) });
  deps.logger.debug({ user: input.user, running: running.length, runs: list.runs.length, total: list.total, state, admin }, 'published App Home');
}

/** The person's schedules (all of them for an admin), each with its next run as its job scheduler says. */
async function homeSchedules(user: string, admin: boolean, book: ScheduleBook | undefined): Promise<HomeSchedule[]> {
  if (!book) return [];
  const mine = (await book.store.all()).filter((s) => admin || s.creator === user);
  return Promise.all(
    mine.map(async (s) => {
      const next = s.state === 'active' ? await book.nextRun(s.id).catch(() => undefined) : undefined;
      return {
        id: s.id,
        state: s.state,
        when: s.when,
        timezone: s.timezone,
        channel: s.channel,
        instruction: s.instruction,
        next: next ? formatRunTime(new Date(next), s.timezone) : undefined,
        pausedBecause: s.pausedBecause,
      };
    }),
  );
}

/**
 * A control of the Home tab: a filter chosen (back to the first page), a page turned, or Cancel pressed on a running
 * run (the thread's own cancel path, for that run only; the thread reads "Cancelled by @person from App Home").
 */
export async function handleHomeAction(
  input: { client: WebClient; user: string; actionId: string; value?: string; selected?: string; privateMetadata?: string },
  deps: HandlerDeps & AppHomeDeps,
): Promise<void> {
  const state = decodeHomeState(input.privateMetadata);
  const chosen = input.selected === '*' ? undefined : input.selected;
  let notice: string | undefined;
  if (input.actionId === HOME_ACTIONS.repository) Object.assign(state, { repository: chosen && REPOSITORY.test(chosen) ? chosen : undefined, page: 0 });
  else if (input.actionId === HOME_ACTIONS.outcome)
    Object.assign(state, { outcome: chosen && Object.hasOwn(RUN_OUTCOMES, chosen) ? chosen : undefined, page: 0 });
  else if (input.actionId.startsWith(HOME_ACTIONS.page)) state.page = Math.max(0, Math.min(9_999, Number.parseInt(input.value ?? '0', 10) || 0));
  else if (input.actionId === HOME_ACTIONS.cancel) {
    const target = decodeHomeCancel(input.value);
    if (!target) return;
    const outcome = await cancelThreadRuns({ client: input.client, ...target, user: input.user, quiet: true, via: 'from App Home' }, deps);
    notice = {
      cancelled: 'Cancel requested: the run stops before its next step, and its thread says so.',
      nothing_running: 'That run had already ended.',
      not_allowed: 'Only the person who asked for that run, or an approver, can cancel it.',
    }[outcome];
  }
  await publishAppHome({ client: input.client, user: input.user, state, notice }, deps);
}
