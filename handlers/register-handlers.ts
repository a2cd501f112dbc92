import type { SlackApp } from '../src/slack/create-slack-app.js';
import { ACTIONS, ANSWER_ACTION, decodeThreadRef, HOME_ACTIONS, REPOSITORY_ACTION, VIEWS } from '../src/slack/action-ids.js';
import { handleAnswerButton } from './answer-question.js';
import { handleAppMention, mentionInputOf } from './app-mention.js';
import { handleAppHomeOpened, handleHomeAction } from './app-home.js';
import { cancelThreadRuns, threadOfMessage } from './cancel-run.js';
import { handleAddDetails, handleClarifySubmission, handleStartAnyway } from './clarification-actions.js';
import type { HandlerDeps } from './handler-deps.js';
import { handleDirectMessage } from './direct-message.js';
import { handleRepositoryChoice } from './repository-choice.js';
import { handleScheduleButton } from './schedule-requests.js';
import { SCHEDULE_ACTIONS } from '../src/slack/schedule-card.js';
import { handleThreadMessage } from './thread-message.js';
import { registerTriageHandlers } from './triage-actions.js';
import { acknowledgeUnknownInteractions, KnownInteractions } from './unknown-interactions.js';

type ButtonBody = { user: { id: string }; trigger_id?: string; team?: { id: string } | null; actions: Array<{ value?: string }> };

/** Listeners registered per kind; each acknowledges, then delegates to a plain function of (input, deps). */
export function registerHandlers(app: SlackApp, deps: HandlerDeps): void {
  const known = new KnownInteractions();
  acknowledgeUnknownInteractions(app, known, deps.logger);

  app.event(known.event('app_mention'), async ({ event, body, client, context }) => {
    const outcome = await handleAppMention(mentionInputOf(body as unknown as Record<string, unknown>, client, context.botUserId), deps);
    deps.logger.debug({ eventId: body.event_id, channel: event.channel, outcome }, 'app_mention handled');
  });

  app.event(known.event('message'), async ({ event, body, client, context }) => {
    const message = event as {
      channel: string;
      channel_type?: string;
      user?: string;
      text?: string | null;
      blocks?: unknown;
      ts: string;
      thread_ts?: string;
      bot_id?: string;
      subtype?: string;
    };
    const input = { eventId: body.event_id, teamId: teamIdOf(body), botUserId: context.botUserId, event: message, client };
    const outcome = message.channel_type === 'im' ? await handleDirectMessage(input, deps) : await handleThreadMessage(input, deps);
    deps.logger.debug({ eventId: body.event_id, channel: message.channel, subtype: message.subtype, outcome }, 'message event handled');
  });

  app.event(known.event('reaction_added'), async ({ event, body, client }) => {
    // Slack has sent reactions whose `item` is null (on a message that was deleted meanwhile): nothing to cancel.
    const item = event.item as typeof event.item | null | undefined;
    const cancels = event.reaction === 'x' && item?.type === 'message';
    if (cancels) {
      const { channel, ts } = item;
      const threadTs = await threadOfMessage({ client, channel, ts }, deps);
      if (threadTs) await cancelThreadRuns({ client, channel, threadTs, user: event.user, quiet: true }, deps);
    }
    deps.logger.debug({ eventId: body.event_id, reaction: String(event.reaction).slice(0, 80), cancels }, 'reaction event handled');
  });

  const button =
    (handler: (input: { client: typeof app.client; user: string; value?: string; triggerId?: string; teamId?: string }) => Promise<unknown>) =>
    async ({ ack, body, client }: { ack: () => Promise<void>; body: unknown; client: typeof app.client }) => {
      await ack();
      const b = body as ButtonBody;
      await handler({ client, user: b.user.id, value: b.actions[0]?.value, triggerId: b.trigger_id, teamId: teamIdOf({ team_id: b.team?.id }) });
    };

  app.action(
    known.action(ACTIONS.addDetails),
    button((input) => handleAddDetails(input, deps)),
  );
  app.action(
    known.action(ACTIONS.startAnyway),
    button((input) => handleStartAnyway(input, deps)),
  );
  app.action(
    known.action(REPOSITORY_ACTION),
    button((input) => handleRepositoryChoice(input, deps)),
  );
  app.action(
    known.action(ANSWER_ACTION),
    button((input) => handleAnswerButton(input, deps)),
  );
  app.action(
    known.action(ACTIONS.cancelRun),
    button(async (input) => {
      const thread = decodeThreadRef(input.value);
      if (thread) await cancelThreadRuns({ client: input.client, channel: thread.channel, threadTs: thread.threadTs, user: input.user }, deps);
    }),
  );

  app.action(known.action(new RegExp(`^(${SCHEDULE_ACTIONS.confirm}|${SCHEDULE_ACTIONS.cancel})$`)), async ({ ack, body, client }) => {
    await ack();
    const b = body as { user: { id: string }; actions: Array<{ action_id: string; value?: string }> };
    const action = b.actions[0];
    const schedules = deps.schedules;
    if (!action || !schedules) return;
    await handleScheduleButton({ client, user: b.user.id, actionId: action.action_id, value: action.value }, { ...deps, schedules });
  });

  app.event('app_home_opened', async ({ event, client }) => {
    if (!deps.runLog) return;
    const privateMetadata = (event as { view?: { private_metadata?: string } }).view?.private_metadata;
    await handleAppHomeOpened({ client, user: event.user, tab: event.tab, privateMetadata }, { ...deps, runLog: deps.runLog, links: deps.runLinks });
  });

  app.action(
    known.action(new RegExp(`^(${HOME_ACTIONS.repository}|${HOME_ACTIONS.outcome}|${HOME_ACTIONS.cancel}|${HOME_ACTIONS.page}_\\d+)$`)),
    async ({ ack, body, client }) => {
      await ack();
      if (!deps.runLog) return;
      const b = body as {
        user: { id: string };
        view?: { private_metadata?: string } | null;
        actions: Array<{ action_id: string; value?: string; selected_option?: { value?: string } | null }>;
      };
      const action = b.actions[0];
      if (!action) return;
      await handleHomeAction(
        {
          client,
          user: b.user.id,
          actionId: action.action_id,
          value: action.value,
          selected: action.selected_option?.value,
          privateMetadata: b.view?.private_metadata,
        },
        { ...deps, runLog: deps.runLog, links: deps.runLinks },
      );
    },
  );

  registerTriageHandlers(app, deps, known);

  app.view(known.view(VIEWS.clarify), async ({ ack, body, view, client }) => {
    await handleClarifySubmission(
      {
        client,
        user: body.user.id,
        viewId: view.id,
        privateMetadata: view.private_metadata,
        values: view.state.values,
        teamId: teamIdOf({ team_id: body.team?.id }),
      },
      deps,
      (response) => (response ? ack(response) : ack()),
    );
  });

  // Logged here, then passed on so the receiver answers Slack 200 at once (not 500, not after 3 s).
  app.error(async (error) => {
    deps.logger.error({ err: (error as { original?: unknown }).original ?? error }, 'Slack listener failed');
    throw error;
  });
}

/** The workspace id of an event; absent (not a bad job later) when Slack's envelope carries none or an ill-typed one. */
function teamIdOf(body: { team_id?: unknown }): string | undefined {
  return typeof body.team_id === 'string' && body.team_id.length > 0 ? body.team_id : undefined;
}
