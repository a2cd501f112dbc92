import { parse as parseQuery } from 'node:querystring';

/**
 * What to do with a signed request to /slack/events before Bolt sees it. Bolt assumes a well-formed
 * body (a JSON `null` crashes its receiver, `event: null` makes it answer 500, and a type it does not
 * know leaves Slack waiting three seconds for a 404), so only bodies Bolt can route go on to it.
 */
export type SlackBodyVerdict =
  | { action: 'pass' }
  /** Signed by Slack, but nothing Wrench can act on: acknowledged at once with 200 and logged. */
  | { action: 'acknowledge'; reason: string }
  /** Not Slack's format at all: 400 with the reason. */
  | { action: 'reject'; reason: string };

const INTERACTION_TYPES = new Set([
  'block_actions',
  'block_suggestion',
  'view_submission',
  'view_closed',
  'shortcut',
  'message_action',
  'interactive_message',
  'dialog_submission',
  'dialog_suggestion',
  'dialog_cancellation',
]);

const FORM = 'application/x-www-form-urlencoded';

/** Mirrors how Bolt's HTTP receiver reads the body (form when the content type is exactly form-encoded, else JSON). */
export function screenSlackBody(raw: string, contentType: string | undefined): SlackBodyVerdict {
  if (contentType === FORM) return screenForm(raw);
  const parsed = parseJson(raw);
  if (!parsed.ok) return { action: 'reject', reason: `the body is not JSON (${parsed.error})` };
  return screenJson(parsed.value);
}

function screenForm(raw: string): SlackBodyVerdict {
  const form = parseQuery(raw);
  if (form.ssl_check === '1') return { action: 'pass' };
  if (typeof form.command === 'string') return { action: 'acknowledge', reason: `slash command ${form.command.slice(0, 40)} (Wrench has none)` };
  if (typeof form.payload !== 'string') return { action: 'reject', reason: 'a form body without a `payload` field' };
  const parsed = parseJson(form.payload);
  if (!parsed.ok) return { action: 'reject', reason: `the payload is not JSON (${parsed.error})` };
  const payload = parsed.value;
  if (!isRecord(payload)) return { action: 'reject', reason: `the payload is ${describe(payload)}, not an object` };
  if (typeof payload.type !== 'string') return { action: 'reject', reason: 'the payload has no `type`' };
  if (!INTERACTION_TYPES.has(payload.type)) return { action: 'acknowledge', reason: `interaction type ${payload.type.slice(0, 40)} is not one Wrench handles` };
  if (payload.type === 'block_actions' && !(Array.isArray(payload.actions) && payload.actions.every(isRecord)))
    return { action: 'acknowledge', reason: 'block_actions without a list of actions' };
  if ((payload.type === 'view_submission' || payload.type === 'view_closed') && !isRecord(payload.view))
    return { action: 'acknowledge', reason: `${payload.type} without a view` };
  if (!boltRoutes(payload)) return { action: 'acknowledge', reason: `${payload.type} without the fields Bolt routes it by` };
  return { action: 'pass' };
}

function screenJson(body: unknown): SlackBodyVerdict {
  if (!isRecord(body)) return { action: 'reject', reason: `the body is ${describe(body)}, not an object` };
  if (typeof body.type !== 'string') return { action: 'reject', reason: 'the body has no `type`' };
  if (body.type === 'url_verification')
    return typeof body.challenge === 'string' ? { action: 'pass' } : { action: 'reject', reason: 'url_verification without a challenge' };
  if (body.type !== 'event_callback') return { action: 'acknowledge', reason: `envelope type ${body.type.slice(0, 40)} is not one Wrench handles` };
  if (!isRecord(body.event)) return { action: 'acknowledge', reason: `event_callback whose event is ${describe(body.event)}` };
  if (typeof body.event.type !== 'string') return { action: 'acknowledge', reason: 'event_callback whose event has no type' };
  if ('item' in body.event && !isRecord(body.event.item))
    return { action: 'acknowledge', reason: `${body.event.type} whose item is ${describe(body.event.item)}` };
  return { action: 'pass' };
}

/**
 * Whether Bolt can tell what kind of interaction a payload is (its `getTypeAndConversation`): one it cannot
 * (a legacy `interactive_message` without `actions`, a `dialog_cancellation`) reaches no middleware and is left
 * for the receiver's three-second timeout.
 */
function boltRoutes(payload: Record<string, unknown>): boolean {
  if (payload.name !== undefined || payload.type === 'block_suggestion') return true;
  if (payload.actions !== undefined || payload.type === 'dialog_submission') return true;
  return ['shortcut', 'message_action', 'view_submission', 'view_closed'].includes(String(payload.type));
}

function parseJson(raw: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch (error) {
    return { ok: false, error: (error as Error).message.slice(0, 120) };
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value === undefined) return 'missing';
  return `a ${typeof value}`;
}
