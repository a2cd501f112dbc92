import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleAppMention } from '../../../handlers/app-mention.js';
import type { HandlerDeps } from '../../../handlers/handler-deps.js';
import { handleScheduleButton } from '../../../handlers/schedule-requests.js';
import { publishAppHome } from '../../../handlers/app-home.js';
import { RunLogStore } from '../../../src/run-log/run-log-store.js';
import { ScheduleBook, schedulerIdOf } from '../../../src/schedules/schedule-queue.js';
import { ScheduleStore } from '../../../src/schedules/schedule-store.js';
import { nextRuns } from '../../../src/schedules/schedule-times.js';
import { SCHEDULE_ACTIONS } from '../../../src/slack/schedule-card.js';
import { readWithModel } from '../../../src/instruction/model-reader.js';
import { createLogger } from '../../../src/logging/logger.js';
import { startAnthropicFake, textResponse } from '../../fakes/anthropic-fake.js';
import { startHandlerWorld, type HandlerWorld } from '../../helpers/handler-world.js';
import { uniqueName } from '../../helpers/unique-name.js';

type Button = { action_id: string; value: string };

/** Schedules made and managed from Slack, through the mention handler and the card's buttons (real Redis, the Slack fake). */
describe('schedules from Slack', () => {
  let world: HandlerWorld;
  let deps: HandlerDeps & { schedules: ScheduleBook };
  let ts = 1700002000;

  beforeAll(async () => {
    world = await startHandlerWorld('schedule-slack');
    const prefix = world.deps.config.env.WRENCH_QUEUE_PREFIX;
    const { config } = world.deps;
    deps = {
      ...world.deps,
      config: { ...config, file: { ...config.file, access: { ...config.file.access, admins: ['U0ADMIN'] } } },
      schedules: new ScheduleBook(world.redis, prefix, new ScheduleStore(world.redis, prefix)),
    };
    world.slack.addUser({ id: 'U0ALICE', tz: 'America/New_York' });
  });

  afterAll(async () => {
    await deps?.schedules.close();
    await world?.stop();
  });

  const mention = async (user: string, text: string, threadTs?: string) => {
    const eventTs = `${ts++}.000100`;
    const outcome = await handleAppMention(
      {
        eventId: uniqueName('Ev'),
        botUserId: 'U0BOT',
        event: { channel: 'C0DEV', user, text: `<@U0BOT> ${text}`, ts: eventTs, ...(threadTs ? { thread_ts: threadTs } : {}) },
        client: world.client,
      },
      deps,
    );
    return { outcome, thread: threadTs ?? eventTs, replies: () => world.slack.messages('C0DEV', threadTs ?? eventTs).filter((m) => m.user === 'U0BOT') };
  };

  it('reads the request as a schedule, shows the next three runs in the requester’s time zone, and confirms it for the requester only', async () => {
    const asked = await mention('U0ALICE', 'every Monday at 9:00, update the minor versions of our npm dependencies and open a PR');
    expect(asked.outcome).toBe('proposed');
    const card = asked.replies()[0];
    const text = JSON.stringify(card?.blocks);
    expect(text).toContain('every Monday at 9:00');
    expect(text).toContain('Next runs (America/New_York)');
    const expected = nextRuns('0 9 * * 1', 'America/New_York', 3);
    expect(expected.map((d) => d.toLocaleString('en-US', { timeZone: 'America/New_York', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }))).toEqual([
      '09:00',
      '09:00',
      '09:00',
    ]);
    expect(text.match(/09:00 \(America\/New_York\)/g)).toHaveLength(3);
    // Nothing runs before it is confirmed.
    expect(await deps.schedules.queue.getJobSchedulers()).toEqual([]);
    expect(await deps.queues.tasks.getJobCounts()).toMatchObject({ waiting: 0 });

    const buttons = ((card?.blocks ?? []) as Array<{ type: string; elements?: Button[] }>).find((b) => b.type === 'actions')?.elements ?? [];
    const confirm = buttons.find((b) => b.action_id === SCHEDULE_ACTIONS.confirm) as Button;
    expect(await handleScheduleButton({ client: world.client, user: 'U0BOB', actionId: confirm.action_id, value: confirm.value }, deps)).toBe('not_allowed');
    expect(world.slack.ephemerals.at(-1)).toMatchObject({ user: 'U0BOB', text: expect.stringContaining('Only the person who asked for this schedule') });
    expect(await handleScheduleButton({ client: world.client, user: 'U0ALICE', actionId: confirm.action_id, value: confirm.value }, deps)).toBe('confirmed');
    expect(await handleScheduleButton({ client: world.client, user: 'U0ALICE', actionId: confirm.action_id, value: confirm.value }, deps)).toBe('stale');

    const scheduler = await deps.schedules.queue.getJobScheduler(schedulerIdOf('1'));
    expect(scheduler).toMatchObject({ pattern: '0 9 * * 1', tz: 'America/New_York', next: expected[0]?.getTime() });
    const answered = world.slack.messages('C0DEV', asked.thread).find((m) => m.ts === card?.ts);
    expect(JSON.stringify(answered?.blocks)).toContain('confirmed: this is *schedule 1*');
    expect(JSON.stringify(answered?.blocks)).not.toContain(SCHEDULE_ACTIONS.confirm);
  });

  it('shows in App Home with its next run: the creator’s and an admin’s, not someone else’s', async () => {
    const runLog = new RunLogStore(world.redis, deps.config.env.WRENCH_QUEUE_PREFIX, { retentionDays: 30 });
    const home = async (user: string) => {
      await publishAppHome({ client: world.client, user, state: { page: 0 } }, { ...deps, runLog, links: undefined });
      return JSON.stringify(
        world.slack
          .callsTo('views.publish')
          .filter((c) => c.args.user_id === user)
          .at(-1)?.args.view,
      );
    };
    const alice = await home('U0ALICE');
    expect(alice).toContain('Schedules (1)');
    expect(alice).toMatch(/\*1\* _every Monday at 9:00_ \(America\/New_York\) in <#C0DEV> · next run Mon, [^"]*09:00 \(America\/New_York\)/);
    expect(await home('U0ADMIN')).toContain('Schedules (1)');
    expect(await home('U0BOB')).not.toContain('Schedules (');
  });

  it('lists, pauses, resumes and deletes it: the creator or an admin, nobody else', async () => {
    const list = await mention('U0BOB', 'list schedules');
    expect(list.outcome).toBe('listed');
    expect(list.replies()[0]?.text).toMatch(
      /\*1\* \(active\) _every Monday at 9:00_, America\/New_York, <#C0DEV>: update the minor versions.* — next: Mon, .*09:00 \(America\/New_York\)/,
    );

    expect((await mention('U0BOB', 'pause schedule 1')).outcome).toBe('not_allowed');
    expect(world.slack.ephemerals.at(-1)?.text).toContain('Only the person who made this schedule');
    expect(await deps.schedules.queue.getJobScheduler(schedulerIdOf('1'))).toBeTruthy();

    const paused = await mention('U0ADMIN', 'pause schedule 1');
    expect(paused.outcome).toBe('paused');
    expect(await deps.schedules.queue.getJobScheduler(schedulerIdOf('1'))).toBeUndefined();
    expect(await deps.schedules.store.get('1')).toMatchObject({ state: 'paused', pausedBecause: 'paused by <@U0ADMIN>' });
    expect((await mention('U0ALICE', 'pause schedule 1')).outcome).toBe('unchanged');

    const resumed = await mention('U0ALICE', 'resume schedule 1');
    expect(resumed.outcome).toBe('resumed');
    expect(resumed.replies()[0]?.text).toMatch(/resumed schedule 1; next run Mon, .* 09:00 \(America\/New_York\)/);
    expect(await deps.schedules.queue.getJobScheduler(schedulerIdOf('1'))).toMatchObject({ pattern: '0 9 * * 1' });

    expect((await mention('U0ALICE', 'delete schedule 1')).outcome).toBe('deleted');
    expect(await deps.schedules.queue.getJobSchedulers()).toEqual([]);
    expect(await deps.schedules.store.get('1')).toBeNull();
    expect((await mention('U0ALICE', 'resume schedule 1')).outcome).toBe('not_found');
    expect((await mention('U0BOB', 'list schedules')).replies()[0]?.text).toContain('No schedules yet');
  });

  it('refuses what it cannot schedule, saying why, and schedules nothing', async () => {
    const tooOften = await mention('U0ALICE', 'every 5 seconds: add a line to the changelog');
    expect(tooOften.outcome).toBe('refused');
    expect(tooOften.replies()[0]?.text).toBe('That would run every 5 s; schedules made in Slack run at most every 900 s. Nothing was scheduled.');
    const badTime = await mention('U0ALICE', 'every Monday at 25:00, update the dependencies');
    expect(badTime.replies()[0]?.text).toContain('"25:00" is not a time of day');
    // A phrase in another language is answered in it, whatever the requester's Slack locale.
    const german = await mention('U0ALICE', 'jeden Montag um 25:00, aktualisiere die Abhängigkeiten');
    expect(german.outcome).toBe('refused');
    expect(german.replies()[0]?.text).toBe(
      'Ich habe das als Zeitplan gelesen, aber „25:00“ ist keine Uhrzeit (schreib 9:00, 17:30 oder 17 Uhr). Es wurde nichts eingeplant.',
    );
    const chinese = await mention('U0ALICE', '每周一上午9点，更新 npm 依赖的次版本并提交 PR');
    expect(chinese.outcome).toBe('proposed');
    const chineseCard = JSON.stringify(chinese.replies()[0]?.blocks);
    expect(chineseCard).toContain('定时任务');
    expect(chineseCard).toContain('_每周一上午9点_');
    expect(chineseCard).toContain('更新 npm 依赖的次版本并提交 PR');
    const proposed = (await deps.schedules.store.all()).find((s) => s.when === '每周一上午9点');
    expect(proposed).toMatchObject({ cron: '0 9 * * 1', language: 'zh', state: 'proposed' });
    await deps.schedules.store.remove(proposed?.id ?? '');
    const cancelled = await mention('U0ALICE', 'every weekday at 17:30 run the audit');
    const card = cancelled.replies()[0];
    const cancel = (((card?.blocks ?? []) as Array<{ type: string; elements?: Button[] }>).find((b) => b.type === 'actions')?.elements ?? []).find(
      (b) => b.action_id === SCHEDULE_ACTIONS.cancel,
    ) as Button;
    expect(await handleScheduleButton({ client: world.client, user: 'U0ALICE', actionId: cancel.action_id, value: cancel.value }, deps)).toBe('cancelled');
    expect(await deps.schedules.queue.getJobSchedulers()).toEqual([]);
    expect((await deps.schedules.store.all()).length).toBe(0);
  });

  it('a schedule only the model reader recognises gets the card; a cron from the model that cron-parser refuses leaves a task', async () => {
    const anthropic = await startAnthropicFake();
    const client = new Anthropic({ apiKey: 'test', baseURL: anthropic.url, maxRetries: 0 });
    const logger = createLogger({ level: 'silent' });
    const withReader = {
      ...deps,
      readInstruction: (text: string, history: string[]) => readWithModel(text, history, { client, model: 'claude-haiku-5-5', timeoutMs: 10_000, logger }),
    };
    const reading = (schedule: Record<string, string>) =>
      textResponse(
        JSON.stringify({
          category: 'feature',
          complexity: 'simple',
          verdict: 'well-formed',
          missing: [],
          summary: 'Update the npm dependencies and open a PR.',
          questions: [],
          elements: { task: 'update the npm dependencies and open a PR' },
          schedule,
        }),
      );
    const mentionRead = async (text: string) => {
      const eventTs = `${ts++}.000100`;
      const outcome = await handleAppMention(
        {
          eventId: uniqueName('Ev'),
          botUserId: 'U0BOT',
          event: { channel: 'C0DEV', user: 'U0ALICE', text: `<@U0BOT> ${text}`, ts: eventTs },
          client: world.client,
        },
        withReader,
      );
      return { outcome, thread: eventTs };
    };
    try {
      const text = 'on Mondays at nine, could you update the npm dependencies and open a PR?';
      const phrased = 'update the npm dependencies and open a PR';
      anthropic.setScript([reading({ cron: '0 9 * * 1', when: 'on Mondays at nine', instruction: phrased })]);
      const asked = await mentionRead(text);
      expect(asked.outcome).toBe('proposed');
      expect(JSON.stringify(anthropic.requests.at(-1)?.body)).toContain('on Mondays at nine, could you');
      const card = world.slack.messages('C0DEV', asked.thread).find((m) => m.user === 'U0BOT' && JSON.stringify(m.blocks).includes('Confirm schedule'));
      expect(JSON.stringify(card?.blocks)).toContain('_on Mondays at nine_');
      expect(JSON.stringify(card?.blocks)).toContain(phrased);
      expect(JSON.stringify(card?.blocks).match(/Mon, [^,]*, 09:00 \(America\/New_York\)/g)).toHaveLength(3);
      const proposed = (await deps.schedules.store.all()).find((s) => s.when === 'on Mondays at nine');
      expect(proposed).toMatchObject({ cron: '0 9 * * 1', instruction: phrased, state: 'proposed', timezone: 'America/New_York' });
      expect(await deps.queues.tasks.getJobCounts()).toMatchObject({ waiting: 0 });
      await deps.schedules.store.remove(proposed?.id ?? '');

      // Too often for a schedule made in Slack, whoever read it: refused with the reason.
      anthropic.setScript([reading({ cron: '* * * * *', when: 'each minute', instruction: phrased })]);
      const often = await mentionRead('each minute, please update the npm dependencies and open a PR');
      expect(often.outcome).toBe('refused');
      expect(world.slack.messages('C0DEV', often.thread).find((m) => m.user === 'U0BOT')?.text).toBe(
        'That would run every 60 s; schedules made in Slack run at most every 900 s. Nothing was scheduled.',
      );

      // The model's cron is not one cron-parser reads: no schedule, the message is the task it also is.
      anthropic.setScript([reading({ cron: '0 9 * * Funday', when: 'each weekday morning', instruction: phrased })]);
      const bad = await mentionRead('each weekday morning update the npm dependencies and open a PR');
      expect(bad.outcome).toBe('queued');
      expect(await deps.schedules.store.all()).toEqual([]);
      expect(await deps.queues.tasks.getJobCounts()).toMatchObject({ waiting: 1 });
    } finally {
      await anthropic.stop();
    }
  });
});
