import { threadLanguage } from '../src/slack/strings/index.js';
import type { HandlerDeps } from './handler-deps.js';

/** The requester's Slack locale, when Slack tells it quickly: a slow lookup must not hold the answer up. */
export async function slackLocale(user: string, deps: Pick<HandlerDeps, 'names'>): Promise<string | undefined> {
  if (!deps.names.userLocale) return undefined;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), LOCALE_LOOKUP_MS)));
  try {
    return await Promise.race([deps.names.userLocale(user).catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}

const LOCALE_LOOKUP_MS = 500;

/**
 * The language of a reply before any instruction was read (help, a refusal): the thread's when it has a session,
 * else the requester's Slack locale. A session store that cannot answer does not hold the reply up.
 */
export async function replyLanguage(
  thread: { channel: string; threadTs: string },
  user: string,
  deps: Pick<HandlerDeps, 'names' | 'sessions'>,
): Promise<string> {
  const session = await deps.sessions.get(thread.channel, thread.threadTs).catch(() => null);
  return session?.language ?? threadLanguage(undefined, await slackLocale(user, deps));
}
