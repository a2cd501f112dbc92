import { upperId } from '../../shared/ids.js';
import { SlackApiError, type SlackArgs, type SlackView } from '../types.js';
import { optionalString, requiredString, type MethodHandler, type SlackState } from './context.js';

function viewArg(args: SlackArgs): Record<string, unknown> {
  const view = args.view;
  if (!view || typeof view !== 'object') throw new SlackApiError('invalid_arguments');
  return view as Record<string, unknown>;
}

function materialize(input: Record<string, unknown>, state: SlackState, id: string, previous?: SlackView): SlackView {
  const { teamId, appId, botId } = state.identity;
  return {
    id,
    team_id: teamId,
    type: String(input.type ?? previous?.type ?? 'modal'),
    blocks: (input.blocks as unknown[] | undefined) ?? [],
    private_metadata: (input.private_metadata as string | undefined) ?? '',
    callback_id: (input.callback_id as string | undefined) ?? '',
    external_id: (input.external_id as string | undefined) ?? previous?.external_id ?? '',
    state: { values: {} },
    hash: `${Date.now()}.${upperId('', 8)}`,
    title: input.title,
    close: input.close ?? null,
    submit: input.submit ?? null,
    clear_on_close: input.clear_on_close ?? false,
    notify_on_close: input.notify_on_close ?? false,
    previous_view_id: null,
    root_view_id: previous?.root_view_id ?? id,
    app_id: appId,
    bot_id: botId,
  };
}

const open: MethodHandler = (args, state) => {
  requiredString(args, 'trigger_id', 'invalid_trigger_id');
  const id = upperId('V', 10);
  const view = materialize(viewArg(args), state, id);
  state.views.set(id, view);
  return { view };
};

const push: MethodHandler = open;

const update: MethodHandler = (args, state) => {
  const viewId = optionalString(args, 'view_id');
  const externalId = optionalString(args, 'external_id');
  const previous = viewId ? state.views.get(viewId) : [...state.views.values()].find((view) => externalId && view.external_id === externalId);
  if (!previous) throw new SlackApiError('not_found');
  const view = materialize(viewArg(args), state, previous.id, previous);
  state.views.set(previous.id, view);
  return { view };
};

const publish: MethodHandler = (args, state) => {
  const user = requiredString(args, 'user_id', 'invalid_arguments');
  const previous = state.homeViews.get(user);
  const view = materialize(viewArg(args), state, previous?.id ?? upperId('V', 10), previous);
  state.homeViews.set(user, view);
  return { view };
};

export const viewMethods: Record<string, MethodHandler> = {
  'views.open': open,
  'views.push': push,
  'views.update': update,
  'views.publish': publish,
};
