import type { KnownBlock } from '@slack/types';
import type { Schedule } from '../schedules/schedule-store.js';
import { formatRunTime, nextRuns } from '../schedules/schedule-times.js';
import type { ThreadStrings } from './strings/index.js';
import type { ThreadMessage } from './thread-poster.js';
import { escapeMrkdwn, truncate } from './slack-escape.js';

/** The buttons of a schedule's confirmation card. */
export const SCHEDULE_ACTIONS = { confirm: 'wrench_schedule_confirm', cancel: 'wrench_schedule_cancel' } as const;

export const encodeScheduleValue = (id: string) => JSON.stringify({ s: id });

export function decodeScheduleValue(raw: string | undefined): string | undefined {
  try {
    const parsed = JSON.parse(raw ?? '') as { s?: unknown };
    return typeof parsed.s === 'string' && /^[A-Za-z0-9-]{1,40}$/.test(parsed.s) ? parsed.s : undefined;
  } catch {
    return undefined;
  }
}

/** The next three runs, each in the schedule's time zone (the requester's, for one made in Slack). */
export function nextRunLines(schedule: Pick<Schedule, 'cron' | 'timezone'>, from = new Date()): string[] {
  return nextRuns(schedule.cron, schedule.timezone, 3, from).map((time) => formatRunTime(time, schedule.timezone));
}

function summaryBlocks(schedule: Schedule, t: ThreadStrings, from: Date): KnownBlock[] {
  const repository = `${schedule.repo.owner}/${schedule.repo.name}`;
  return [
    {
      type: 'section',
      text: { type: 'mrkdwn', text: t.schedules.proposal(escapeMrkdwn(schedule.when), repository, escapeMrkdwn(truncate(schedule.instruction, 2500))) },
    },
    {
      type: 'context',
      elements: [
        {
          type: 'mrkdwn',
          text: `${t.schedules.nextRuns(schedule.timezone)}\n${nextRunLines(schedule, from)
            .map((line) => `• ${line}`)
            .join('\n')}`,
        },
      ],
    },
  ];
}

/** The card asking the requester to confirm a schedule: what, when, the next three runs, Confirm and Cancel. */
export function scheduleCard(schedule: Schedule, t: ThreadStrings, from = new Date()): ThreadMessage {
  const value = encodeScheduleValue(schedule.id);
  return {
    text: `${t.schedules.proposal(schedule.when, `${schedule.repo.owner}/${schedule.repo.name}`, schedule.instruction)}\n${t.schedules.nextRuns(schedule.timezone)} ${nextRunLines(schedule, from).join('; ')}`,
    blocks: [
      ...summaryBlocks(schedule, t, from),
      {
        type: 'actions',
        elements: [
          { type: 'button', action_id: SCHEDULE_ACTIONS.confirm, style: 'primary', text: { type: 'plain_text', text: t.schedules.confirm }, value },
          { type: 'button', action_id: SCHEDULE_ACTIONS.cancel, text: { type: 'plain_text', text: t.schedules.cancel }, value },
        ],
      },
    ],
  };
}

/** The card once answered: its summary and what was decided, without buttons. */
export function answeredScheduleCard(schedule: Schedule, outcome: string, t: ThreadStrings, from = new Date()): ThreadMessage {
  return { text: outcome, blocks: [...summaryBlocks(schedule, t, from), { type: 'section', text: { type: 'mrkdwn', text: outcome } }] };
}
