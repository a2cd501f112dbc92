import bolt from '@slack/bolt';
import type { CustomRoute } from '@slack/bolt';
import type { Config } from '../config/load-config.js';
import { WrenchError } from '../errors.js';
import type { Logger } from '../logging/logger.js';
import { createSlackHttpReceiver } from './slack-http-receiver.js';

const { App, LogLevel, SocketModeReceiver } = bolt;
export type SlackApp = InstanceType<typeof App>;

/**
 * The Bolt app: Socket Mode when SLACK_APP_TOKEN is set, otherwise the HTTP receiver at
 * POST /slack/events (Bolt verifies signatures; see slack-http-receiver.ts for what it answers).
 * Either way the custom routes (PagerDuty webhook, health) are served on PORT.
 */
export function createSlackApp(
  config: Config,
  logger: Logger,
  customRoutes: CustomRoute[],
  options: { beforeAck?: (rawBody: string) => Promise<void> } = {},
): SlackApp {
  const env = config.env;
  const slackLogger = boltLogger(logger);
  const common = {
    token: env.SLACK_BOT_TOKEN,
    logger: slackLogger,
    clientOptions: { slackApiUrl: env.SLACK_API_URL, retryConfig: { retries: 3, factor: 2, minTimeout: 500, maxTimeout: 10_000 } },
    customRoutes,
  };
  const { customRoutes: routes, ...rest } = common;
  if (env.SLACK_APP_TOKEN) {
    // As over HTTP: a listener's failure is acknowledged (logged by app.error), so Slack does not redeliver it.
    const receiver = new SocketModeReceiver({
      appToken: env.SLACK_APP_TOKEN,
      logger: slackLogger,
      installerOptions: { port: env.PORT },
      customRoutes: routes,
      processEventErrorHandler: async ({ error }) => {
        logger.warn(
          { component: 'slack-receiver', error: (error as Error).message },
          'acknowledged a Socket Mode envelope whose processing failed, so Slack does not redeliver it',
        );
        return true;
      },
    });
    return new App({ ...rest, receiver });
  }
  const signingSecret = env.SLACK_SIGNING_SECRET;
  if (!signingSecret)
    throw new WrenchError('config_invalid', 'Set SLACK_SIGNING_SECRET (Basic Information > Signing Secret), or SLACK_APP_TOKEN (xapp-...) for Socket Mode.');
  return new App({
    ...rest,
    receiver: createSlackHttpReceiver({
      signingSecret,
      port: env.PORT,
      customRoutes: routes,
      logger,
      boltLogger: slackLogger,
      beforeAck: options.beforeAck,
    }),
  });
}

function boltLogger(logger: Logger) {
  const child = logger.child({ component: 'bolt' });
  let level = LogLevel.INFO;
  return {
    debug: (...msg: unknown[]) => child.debug(msg.map(String).join(' ')),
    info: (...msg: unknown[]) => child.info(msg.map(String).join(' ')),
    warn: (...msg: unknown[]) => child.warn(msg.map(String).join(' ')),
    error: (...msg: unknown[]) => child.error(msg.map(String).join(' ')),
    setLevel: (l: typeof level) => {
      level = l;
    },
    getLevel: () => level,
    setName: () => {},
  };
}
