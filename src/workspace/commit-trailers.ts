import { runGit } from './run-git.js';

export interface Requester {
  name: string;
  slackUserId: string;
}

export interface TrailerOptions {
  dir: string;
  message: string;
  requester: Requester;
  threadUrl?: string;
}

/** The message with `Requested-by: <name> (Slack <@U…>)` and, when known, `Slack-Thread: <url>` trailers. */
export async function withTrailers({ dir, message, requester, threadUrl }: TrailerOptions): Promise<string> {
  const trailers = [`Requested-by: ${oneLine(requester.name)} (Slack <@${oneLine(requester.slackUserId)}>)`];
  if (threadUrl) trailers.push(`Slack-Thread: ${oneLine(threadUrl)}`);
  const body = message.trim() || 'Changes requested in Slack';
  const args = ['interpret-trailers', '--where', 'end', '--if-exists', 'addIfDifferent'];
  for (const trailer of trailers) args.push('--trailer', trailer);
  return runGit(args, { cwd: dir, input: `${body}\n` });
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
