import { wellFormedText } from '../security/well-formed-text.js';
import { runGit } from './run-git.js';

export interface Requester {
  name: string;
  slackUserId: string;
  /** Their Slack profile email, when Slack gave it: credited with `Co-authored-by:`. */
  email?: string;
}

export interface TrailerOptions {
  dir: string;
  message: string;
  requester: Requester;
  threadUrl?: string;
}

/**
 * The message, made well-formed (git refuses a NUL byte in it; a mention or an agent's summary may hold one), with `Requested-by: <name> (Slack <@U…>)` and, when known, `Slack-Thread: <url>` and
 * `Co-authored-by: <name> <email>` trailers.
 */
export async function withTrailers({ dir, message, requester, threadUrl }: TrailerOptions): Promise<string> {
  // A run asked for on GitHub (an issue) has a GitHub login, not a Slack id: `github:<login>`.
  const who = requester.slackUserId.startsWith('github:') ? 'GitHub' : `Slack <@${oneLine(requester.slackUserId)}>`;
  const trailers = [`Requested-by: ${oneLine(requester.name)} (${who})`];
  if (threadUrl) trailers.push(`Slack-Thread: ${oneLine(threadUrl)}`);
  const coAuthor = coAuthorOf(requester);
  if (coAuthor) trailers.push(`Co-authored-by: ${coAuthor.name} <${coAuthor.email}>`);
  const body = wellFormedText(message).trim() || 'Changes requested in Slack';
  const args = ['interpret-trailers', '--where', 'end', '--if-exists', 'addIfDifferent'];
  for (const trailer of trailers) args.push('--trailer', trailer);
  return runGit(args, { cwd: dir, input: `${body}\n` });
}

/** The requester as a git identity, when their email is known (a plain address: no spaces or angle brackets). */
export function coAuthorOf(requester: Requester): { name: string; email: string } | undefined {
  const email = requester.email?.trim();
  if (!email || !/^[^\s<>@]+@[^\s<>@]+$/.test(email)) return undefined;
  return { name: oneLine(requester.name).replace(/[<>]/g, ''), email };
}

function oneLine(text: string): string {
  return wellFormedText(text).replace(/\s+/g, ' ').trim();
}
