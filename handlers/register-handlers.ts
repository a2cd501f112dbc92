import type { SlackApp } from '../src/slack/create-slack-app.js';
import { handleAppMention } from './app-mention.js';
import type { HandlerDeps } from './handler-deps.js';

/** Listeners registered per kind; each delegates to a plain function of (input, deps). */
export function registerHandlers(app: SlackApp, deps: HandlerDeps): void {
  app.event('app_mention', async ({ event, body, client, context }) => {
    await handleAppMention(
      {
        eventId: body.event_id,
        teamId: body.team_id,
        botUserId: context.botUserId,
        event: { channel: event.channel, user: event.user, text: event.text, ts: event.ts, thread_ts: event.thread_ts, bot_id: event.bot_id },
        client,
      },
      deps,
    );
  });

  app.error(async (error) => {
    deps.logger.error({ err: error }, 'Slack listener failed');
  });
}
