import type { WebClient } from '@slack/web-api';
import type { Config } from '../src/config/load-config.js';
import type { Logger } from '../src/logging/logger.js';
import type { RunLinks } from '../src/run-log/run-links.js';
import type { RunLogStore } from '../src/run-log/run-log-store.js';
import type { Redactor } from '../src/security/redact.js';
import { appHomeView } from '../src/slack/app-home-view.js';

export interface AppHomeDeps {
  config: Config;
  runLog: RunLogStore;
  links: RunLinks | undefined;
  redact: Redactor;
  logger: Logger;
}

const WEEK_MS = 7 * 24 * 3600 * 1000;

async function weekTotals(runLog: RunLogStore, now: number) {
  const [current, previous] = await Promise.all([runLog.totals(now), runLog.totals(now - WEEK_MS)]);
  return { current, previous };
}

/** app_home_opened on the Home tab: publish the person's runs (and, for admins, the week per channel). */
export async function handleAppHomeOpened(input: { client: WebClient; user: string; tab?: string }, deps: AppHomeDeps): Promise<void> {
  if (input.tab && input.tab !== 'home') return;
  const admin = deps.config.file.access.admins.includes(input.user);
  const [mine, week] = await Promise.all([deps.runLog.recentFor(input.user, 15), admin ? weekTotals(deps.runLog, Date.now()) : Promise.resolve(undefined)]);
  const view = appHomeView({ mine, week, runPageUrl: (id) => deps.links?.urlFor(id) });
  await input.client.views.publish({ user_id: input.user, view: deps.redact.deep(view) });
  deps.logger.debug({ user: input.user, runs: mine.length, admin }, 'published App Home');
}
