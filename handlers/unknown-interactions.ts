import type { SlackApp } from '../src/slack/create-slack-app.js';
import type { Logger } from '../src/logging/logger.js';

type Matcher = string | RegExp;

/** The action and view ids Wrench listens for, recorded as listeners are registered. */
export class KnownInteractions {
  private readonly actions: Matcher[] = [];
  private readonly views: string[] = [];
  private readonly events: string[] = [];

  action<T extends Matcher>(id: T): T {
    this.actions.push(id);
    return id;
  }

  view(id: string): string {
    this.views.push(id);
    return id;
  }

  event<T extends string>(type: T): T {
    this.events.push(type);
    return type;
  }

  knowsEvent(type: unknown): boolean {
    return typeof type === 'string' && this.events.includes(type);
  }

  knowsAction(id: unknown): boolean {
    return typeof id === 'string' && this.actions.some((m) => (typeof m === 'string' ? m === id : m.test(id)));
  }

  knowsView(id: unknown): boolean {
    return typeof id === 'string' && this.views.includes(id);
  }
}

interface InteractionBody {
  type?: unknown;
  event?: { type?: unknown };
  event_id?: unknown;
  actions?: Array<{ action_id?: unknown }>;
  view?: { callback_id?: unknown };
  callback_id?: unknown;
}

/**
 * A button, modal or shortcut Wrench has no listener for (an old message's button, another app's
 * payload) is acknowledged at once and logged at debug, instead of leaving Slack to time out and show
 * the person an error. An event type nobody listens for is logged at debug too.
 */
export function acknowledgeUnknownInteractions(app: SlackApp, known: KnownInteractions, logger: Logger): void {
  app.use(async (args) => {
    const { body, next } = args;
    const ack = (args as { ack?: (response?: unknown) => Promise<void> }).ack;
    const b = body as InteractionBody;
    if (b.type === 'event_callback' && !known.knowsEvent(b.event?.type)) {
      // Already acknowledged by Bolt (events are). Still passed on, in case a listener was registered without `known`.
      logger.debug({ eventType: String(b.event?.type).slice(0, 80), eventId: b.event_id }, 'event Wrench has no listener for');
    }
    const unknown = ack ? unknownInteraction(b, known) : undefined;
    if (ack && unknown) {
      logger.debug({ interaction: b.type, id: unknown }, 'acknowledged an interaction Wrench has no listener for');
      await ack();
      return;
    }
    await next();
  });
}

/** The id that nobody listens for, or undefined when a listener will take the payload. */
function unknownInteraction(body: InteractionBody, known: KnownInteractions): string | undefined {
  switch (body.type) {
    case 'block_actions': {
      const ids = (body.actions ?? []).map((a) => a?.action_id);
      return ids.some((id) => known.knowsAction(id)) ? undefined : String(ids[0] ?? '(none)').slice(0, 80);
    }
    case 'view_submission':
      return known.knowsView(body.view?.callback_id) ? undefined : String(body.view?.callback_id ?? '(none)').slice(0, 80);
    case undefined:
      return undefined;
    default:
      // view_closed, shortcuts, message actions, suggestions, legacy dialogs: Wrench registers none.
      return typeof body.type === 'string' && !('event' in body) && !('command' in body)
        ? String(body.callback_id ?? body.view?.callback_id ?? body.type).slice(0, 80)
        : undefined;
  }
}
