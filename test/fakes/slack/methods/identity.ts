import { requiredString, type MethodHandler } from './context.js';

const authTest: MethodHandler = (_args, state) => {
  const { teamId, teamName, botUserId, botId } = state.identity;
  return {
    url: `${state.baseUrl}/`,
    team: teamName,
    user: 'wrench',
    team_id: teamId,
    user_id: botUserId,
    bot_id: botId,
    is_enterprise_install: false,
  };
};

const usersInfo: MethodHandler = (args, state) => {
  const user = requiredString(args, 'user', 'user_not_found');
  const includeLocale = args.include_locale === true || args.include_locale === 'true';
  return { user: state.directory.user(user, { includeLocale }) };
};

const botsInfo: MethodHandler = (args, state) => {
  const { botId, appId, botUserId } = state.identity;
  return { bot: { id: args.bot ?? botId, deleted: false, name: 'wrench', app_id: appId, user_id: botUserId, updated: 1_700_000_000 } };
};

export const identityMethods: Record<string, MethodHandler> = {
  'auth.test': authTest,
  'users.info': usersInfo,
  'bots.info': botsInfo,
};
