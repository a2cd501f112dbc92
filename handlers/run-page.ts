import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebClient } from '@slack/web-api';
import { isWrenchError } from '../src/errors.js';
import type { Logger } from '../src/logging/logger.js';
import type { ChannelMembership } from '../src/run-log/channel-members.js';
import type { SignedInPerson, SlackSignIn } from '../src/run-log/slack-sign-in.js';
import type { RunLinks } from '../src/run-log/run-links.js';
import type { RunLogStore } from '../src/run-log/run-log-store.js';
import { escapeHtml, renderEntry, renderRunPage, renderSummary } from '../src/run-log/render-run-page.js';
import { renderControls, type DoneAction, type RunControls } from '../src/run-log/render-run-controls.js';
import type { RunSummary } from '../src/run-log/run-log-types.js';
import { readBody } from '../src/http/read-body.js';
import { canApprove } from '../src/security/authorize.js';
import { cancelThreadRuns } from './cancel-run.js';
import type { HandlerDeps } from './handler-deps.js';
import { steerableRun, steerRun } from './steer-run.js';

export interface RunPageDeps {
  runLog: RunLogStore;
  /** Undefined when no link secret can be had: run pages are off. */
  links: RunLinks | undefined;
  logger: Logger;
  /** Sign in with Slack, when configured: people without a signed link sign in instead. */
  signIn?: SlackSignIn;
  /** Who may read a run after signing in: members of the conversation it was asked in (anyone of the workspace when unset). */
  isChannelMember?: ChannelMembership;
  /** How often a live page's event stream looks for new steps. Default 1 s. */
  pollMs?: number;
  /** How long one event stream stays open before the browser reconnects. Default 10 min. */
  maxStreamMs?: number;
  /** Stopping and steering from the page (signed-in people only): the thread's own cancel and steering paths. */
  actions?: { deps: HandlerDeps; client: WebClient };
}

const MAX_STEER_CHARS = 4000;

type Request = IncomingMessage & { params?: Record<string, string | string[]> };

/** GET /runs/:id — a run's page; …/events — its new steps as server-sent events; …/record.json — the record; POST …/stop and …/steer — its forms. */
export function runPageHandlers(deps: RunPageDeps) {
  return {
    page: (req: Request, res: ServerResponse) => void guard(res, deps, () => servePage(req, res, deps)),
    events: (req: Request, res: ServerResponse) => void guard(res, deps, () => serveEvents(req, res, deps)),
    record: (req: Request, res: ServerResponse) => void guard(res, deps, () => serveRecord(req, res, deps)),
    signInCallback: (req: Request, res: ServerResponse) => void guard(res, deps, () => completeSignIn(req, res, deps)),
    stop: (req: Request, res: ServerResponse) => void guard(res, deps, () => act('stop', req, res, deps)),
    steer: (req: Request, res: ServerResponse) => void guard(res, deps, () => act('steer', req, res, deps)),
  };
}

/**
 * POST /runs/:id/stop and /runs/:id/steer: what the thread offers, from the page, for a signed-in member of the run's
 * conversation, by the thread's own rules (stop: the requester or an approver; steer: the requester). A form counts
 * only from Wrench's own origin with the token the page gave this person for this run.
 */
async function act(kind: DoneAction, req: Request, res: ServerResponse, deps: RunPageDeps): Promise<void> {
  const id = String(req.params?.id ?? '');
  const { signIn, actions } = deps;
  if (!signIn || !actions) return page(res, 404, 'Acting from the page is off', 'Turn on Sign in with Slack (SLACK_CLIENT_ID, SLACK_CLIENT_SECRET) for it.');
  const person = signIn.session(req.headers.cookie);
  if (!person) return page(res, 403, 'Access denied', 'Sign in with Slack first: open the run page, then stop or steer the run from there.');
  const summary = await deps.runLog.get(id);
  if (!summary) return page(res, 404, 'Run not found', 'This run is not recorded, or its record is older than the retention period.');
  if (!(await mayRead(person, id, res, deps))) return;
  if (!signIn.isOwnOrigin(req.headers)) {
    deps.logger.warn({ user: person.user, run: id, origin: req.headers.origin, component: 'run-page' }, 'refused: a run page form from another origin');
    return page(res, 403, 'Access denied', 'This request did not come from Wrench’s own run page.');
  }
  const body = await readBody(req, 64 * 1024).catch(() => undefined);
  if (!body) return page(res, 413, 'Message too long', `A message to the agent can be at most ${MAX_STEER_CHARS} characters.`);
  const form = new URLSearchParams(body.toString('utf8'));
  if (!signIn.checkFormToken(req.headers.cookie, id, form.get('token')))
    return page(res, 403, 'Access denied', 'This form is out of date or did not come from your run page. Reload the page and try again.');
  if (!summary.channel || !summary.threadTs) return page(res, 409, 'Nothing to act on', 'This run was not asked in a Slack thread.');
  const thread = { channel: summary.channel, threadTs: summary.threadTs };
  if (kind === 'stop') {
    const outcome = await cancelThreadRuns(
      { client: actions.client, ...thread, user: person.user, quiet: true, jobId: id, via: 'on the run page' },
      actions.deps,
    );
    if (outcome === 'not_allowed') return page(res, 403, 'Not allowed', 'Only the person who asked for this run, or an approver, can stop it.');
    if (outcome === 'nothing_running') return page(res, 409, 'Not running', 'This run is not running or queued any more.');
  } else {
    const text = (form.get('text') ?? '').trim();
    if (!text) return page(res, 400, 'Nothing to send', 'Write a message for the agent, then send it.');
    if (text.length > MAX_STEER_CHARS) return page(res, 400, 'Message too long', `A message to the agent can be at most ${MAX_STEER_CHARS} characters.`);
    const session = await actions.deps.sessions.get(thread.channel, thread.threadTs);
    const run = session && steerableRun(session, person.user, false);
    if (!run || run.jobId !== id) {
      const mine = session?.runs.find((r) => r.jobId === id);
      return mine && mine.requester !== person.user
        ? page(res, 403, 'Not allowed', 'Only the person who asked for this run can steer it, as in its thread.')
        : page(res, 409, 'Not working', 'This run is not working right now, so nothing would read the message. Mention Wrench in the thread for a follow-up.');
    }
    if ((await steerRun(run, { ...thread, user: person.user, text }, actions.deps)) === 'too-late')
      return page(
        res,
        409,
        'Too late for this run',
        'The agent had made its last step (the run checks and publishes its change, or has ended), so it will not read the message; the thread says so. Mention Wrench in the thread for a follow-up.',
      );
  }
  deps.logger.info({ user: person.user, run: id, action: kind, component: 'run-page' }, 'acted on a run from its page');
  res.writeHead(303, { ...SECURITY_HEADERS, location: `/runs/${encodeURIComponent(id)}?done=${kind}` });
  res.end();
}

/** The stop and steer forms this reader of a running run may use, or why not; none when acting from the page is off. */
async function controlsFor(req: Request, summary: RunSummary, deps: RunPageDeps): Promise<RunControls | undefined> {
  const { signIn, actions } = deps;
  if (!signIn || !actions || !summary.channel || !summary.threadTs) return undefined;
  const person = signIn.session(req.headers.cookie);
  if (!person) return { signInPath: `/runs/${encodeURIComponent(summary.id)}` };
  // A reader by signed link who is also signed in acts only as a member, as any signed-in reader.
  const member = !deps.isChannelMember || (await deps.isChannelMember(summary.channel, person.user).catch(() => false));
  if (!member) return { note: 'You can stop or steer this run only as a member of the conversation it was asked in.' };
  const session = await actions.deps.sessions.get(summary.channel, summary.threadTs);
  const run = session?.runs.find((r) => r.jobId === summary.id);
  if (!session || !run || (run.status !== 'queued' && run.status !== 'running')) return undefined;
  const mayStop = run.requester === person.user || canApprove(actions.deps.config.file.access, person.user).allowed;
  // Once the agent made its last model call (the run checks and publishes), a message would reach nobody.
  const maySteer = steerableRun(session, person.user, false)?.jobId === run.jobId && !run.agentDone;
  if (!mayStop && !maySteer) return { note: 'Only the person who asked for this run, or an approver, can stop it; only that person can steer it.' };
  const base = `/runs/${encodeURIComponent(summary.id)}`;
  return {
    token: signIn.formToken(req.headers.cookie, summary.id),
    stopPath: mayStop ? `${base}/stop` : undefined,
    steerPath: maySteer ? `${base}/steer` : undefined,
  };
}

/** GET /auth/slack/callback: Slack's redirect after sign-in; sets the session cookie and returns to the run. */
async function completeSignIn(req: Request, res: ServerResponse, deps: RunPageDeps): Promise<void> {
  if (!deps.signIn) return page(res, 404, 'Sign in with Slack is off', 'Set SLACK_CLIENT_ID and SLACK_CLIENT_SECRET to turn it on.');
  try {
    const done = await deps.signIn.complete(new URL(req.url ?? '/', 'http://wrench').searchParams);
    deps.logger.info({ user: done.person.user, component: 'run-page' }, 'signed in with Slack');
    res.writeHead(302, { ...SECURITY_HEADERS, location: done.returnPath, 'set-cookie': done.cookie });
    res.end();
  } catch (error) {
    if (!isWrenchError(error)) throw error;
    page(res, 403, 'Access denied', error.message);
  }
}

async function guard(res: ServerResponse, deps: RunPageDeps, serve: () => Promise<void>): Promise<void> {
  try {
    await serve();
  } catch (error) {
    deps.logger.error({ err: error, component: 'run-page' }, 'run page failed');
    if (!res.headersSent) page(res, 500, 'Something went wrong', 'Wrench could not read this run just now. Try again in a minute.');
    else res.end();
  }
}

/** The run id and query when the link (or the Slack sign-in) is good; otherwise the 403/404 page or the sign-in redirect has been sent. */
async function authorize(
  req: Request,
  res: ServerResponse,
  deps: RunPageDeps,
  kind: 'page' | 'events',
): Promise<{ id: string; query: URLSearchParams } | null> {
  const id = String(req.params?.id ?? '');
  const query = new URL(req.url ?? '/', 'http://wrench').searchParams;
  if (!deps.links && !deps.signIn) {
    page(res, 404, 'Run pages are off', 'Set WRENCH_RUN_LINK_SECRET (or SLACK_SIGNING_SECRET) and WRENCH_PUBLIC_URL to turn them on.');
    return null;
  }
  const verdict = deps.links?.verify(id, query.get('expires'), query.get('sig')) ?? 'invalid';
  if (verdict === 'ok') return { id, query };
  if (deps.signIn) {
    const person = deps.signIn.session(req.headers.cookie);
    // A signed-in reader's query keeps only where the page's event stream goes on from (`from`): never a bad link's
    // signature, which the page's own links would otherwise carry.
    const from = query.get('from');
    if (person) return (await mayRead(person, id, res, deps)) ? { id, query: new URLSearchParams(from === null ? {} : { from }) } : null;
    if (kind === 'page') {
      res.writeHead(302, { ...SECURITY_HEADERS, location: await deps.signIn.authorizeRedirect(`/runs/${encodeURIComponent(id)}`) });
      res.end();
      return null;
    }
  }
  const why = verdict === 'expired' ? 'This link has expired.' : 'This link is not valid.';
  page(res, 403, 'Access denied', `${why} Open the run from its Slack thread (the status message and the final reply link to it).`);
  return null;
}

/** A signed-in person reads a run asked in a conversation only as one of its members; otherwise the 403 or 503 page is sent. */
async function mayRead(person: SignedInPerson, id: string, res: ServerResponse, deps: RunPageDeps): Promise<boolean> {
  const channel = (await deps.runLog.get(id))?.channel;
  if (!channel || !deps.isChannelMember) return true;
  let member: boolean;
  try {
    member = await deps.isChannelMember(channel, person.user);
  } catch (error) {
    deps.logger.warn({ err: error, channel, user: person.user, component: 'run-page' }, 'could not read the members of a run page’s conversation');
    page(
      res,
      503,
      'Try again in a minute',
      'Wrench could not ask Slack whether you are in the conversation this run was asked in. Try again in a minute, or open the run from its Slack thread.',
    );
    return false;
  }
  if (!member) {
    page(res, 403, 'Access denied', 'This run was asked in a conversation you are not a member of. Ask someone there for the link, or to add you.');
  }
  return member;
}

async function servePage(req: Request, res: ServerResponse, deps: RunPageDeps): Promise<void> {
  const access = await authorize(req, res, deps, 'page');
  if (!access) return;
  const summary = await deps.runLog.get(access.id);
  if (!summary) {
    page(res, 404, 'Run not found', 'This run is not recorded, or its record is older than the retention period.');
    return;
  }
  const entries = await deps.runLog.entries(access.id);
  const live = summary.status === 'running' || summary.status === 'queued';
  const sig = access.query.get('sig');
  const signed = sig ? `?expires=${access.query.get('expires')}&sig=${encodeURIComponent(sig)}` : '';
  const eventsPath = `/runs/${encodeURIComponent(access.id)}/events${signed}`;
  // The page's one script runs by a nonce fresh for each response; nothing else may run.
  const nonce = randomBytes(16).toString('base64');
  const done = new URL(req.url ?? '/', 'http://wrench').searchParams.get('done');
  const controls = renderControls(live ? await controlsFor(req, summary, deps) : undefined, done === 'stop' || done === 'steer' ? done : undefined);
  res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/html; charset=utf-8', 'content-security-policy': `${CSP}; script-src 'nonce-${nonce}'` });
  res.end(renderRunPage(summary, entries, live ? { eventsPath, nonce } : null, `/runs/${encodeURIComponent(access.id)}/record.json${signed}`, controls));
}

/** GET /runs/:id/record.json — the stored record (summary and every step) as JSON, for the same readers as the page. */
async function serveRecord(req: Request, res: ServerResponse, deps: RunPageDeps): Promise<void> {
  const access = await authorize(req, res, deps, 'events');
  if (!access) return;
  const summary = await deps.runLog.get(access.id);
  if (!summary) return page(res, 404, 'Run not found', 'This run is not recorded, or its record is older than the retention period.');
  const entries = await deps.runLog.entries(access.id);
  res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify({ summary, entries }, null, 2));
}

async function serveEvents(req: Request, res: ServerResponse, deps: RunPageDeps): Promise<void> {
  const access = await authorize(req, res, deps, 'events');
  if (!access) return;
  // A reconnecting EventSource says which entry it saw last; without it, the page says how many it has.
  const lastSeen = Number(req.headers['last-event-id']);
  let from = Number.isInteger(lastSeen) && lastSeen >= 0 ? lastSeen + 1 : Math.max(0, Number(access.query.get('from')) || 0);
  let lastSummary = '';
  let closed = false;
  req.on('close', () => (closed = true));
  res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
  const send = (event: string, data: unknown, id?: number) =>
    res.write(`${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  const pollMs = deps.pollMs ?? 1000;
  // A stream ends after a while (the browser reconnects where it left off), so a run whose worker died holds nothing forever.
  const until = Date.now() + (deps.maxStreamMs ?? 10 * 60_000);
  let idle = 0;
  while (!closed && Date.now() < until) {
    const [summary, entries] = await Promise.all([deps.runLog.get(access.id), deps.runLog.entries(access.id, from)]);
    if (!summary) break;
    for (const [i, entry] of entries.entries()) send('entry', renderEntry(entry), from + i);
    from += entries.length;
    const header = renderSummary(summary);
    if (header !== lastSummary) {
      send('summary', header);
      lastSummary = header;
    }
    if (summary.status !== 'running' && summary.status !== 'queued') break;
    idle = entries.length ? 0 : idle + pollMs;
    if (idle >= 15_000) {
      res.write(': keep-alive\n\n');
      idle = 0;
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  const finished = !closed && Date.now() < until;
  if (finished) send('end', 'done');
  res.end();
}

const CSP = "default-src 'none'; style-src 'unsafe-inline'; connect-src 'self'; base-uri 'none'; form-action 'self'";

const SECURITY_HEADERS = {
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy': CSP,
};

function page(res: ServerResponse, status: number, title: string, message: string): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="font: 16px system-ui, sans-serif; max-width: 640px; margin: 60px auto; padding: 0 20px"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></body></html>`);
}
