import type { IncomingMessage, ServerResponse } from 'node:http';
import bolt from '@slack/bolt';
import type { CustomRoute } from '@slack/bolt';
import type { Logger } from '../logging/logger.js';
import { screenSlackBody } from './screen-slack-body.js';

const { HTTPReceiver, HTTPModuleFunctions, isValidSlackRequest } = bolt;
type BoltLogger = ConstructorParameters<typeof HTTPReceiver>[0]['logger'];

export const SLACK_EVENTS_PATH = '/slack/events';

export interface SlackReceiverOptions {
  signingSecret: string;
  port: number;
  customRoutes: CustomRoute[];
  logger: Logger;
  boltLogger: BoltLogger;
  /**
   * Called with every signed body Bolt will see, before Bolt acknowledges it (to keep a mention durably). Given at most
   * 2 s of Slack's 3 s; should it fail or take longer, the event was kept nowhere: Slack is answered 503, so it sends
   * the event again (src/slack/intake-journal.ts keepMention fails only when neither Redis nor the local disk took it).
   */
  beforeAck?: (rawBody: string) => Promise<void>;
}

const BEFORE_ACK_BUDGET_MS = 2000;

/**
 * Bolt's HTTP receiver with three guarantees it lacks by default: a signed body Bolt cannot route is
 * answered at once (200 and logged when signed but unusable, 400 when not Slack's format) instead of
 * crashing the process or waiting three seconds; a listener's failure answers 200, not 500 (Slack
 * would redeliver and show the person an error); a request nobody acknowledged answers 200.
 */
export function createSlackHttpReceiver(options: SlackReceiverOptions): InstanceType<typeof HTTPReceiver> {
  const log = options.logger.child({ component: 'slack-receiver' });
  const receiver = new HTTPReceiver({
    signingSecret: options.signingSecret,
    port: options.port,
    endpoints: SLACK_EVENTS_PATH,
    customRoutes: options.customRoutes,
    logger: options.boltLogger,
    processBeforeResponse: false,
    processEventErrorHandler: async ({ error, response }) => {
      if (response.headersSent) return false;
      log.warn({ error: (error as Error).message }, 'answered 200 to a Slack request whose processing failed, so Slack neither redelivers nor shows an error');
      answer(response, 200);
      return true;
    },
    unhandledRequestHandler: ({ response }) => {
      log.warn('a Slack request was not acknowledged by any listener in time; answered 200');
      if (!response.headersSent) answer(response, 200);
    },
    dispatchErrorHandler: ({ error, request, response }) => {
      const unmatched = (error as { code?: string }).code === 'slack_bolt_http_receiver_deferred_request_error';
      if (!unmatched) log.error({ err: error, method: request.method, path: request.url }, 'HTTP request failed');
      if (!response.headersSent) answer(response, unmatched ? 404 : 500, unmatched ? { error: 'not_found' } : { error: 'internal_error' });
    },
  });
  const boltListener = receiver.requestListener;
  receiver.requestListener = (req, res) => {
    if (req.method !== 'POST' || new URL(req.url ?? '/', 'http://localhost').pathname !== SLACK_EVENTS_PATH) return boltListener(req, res);
    screenRequest(req, res, options, log).then(
      (pass) => {
        if (pass) boltListener(req, res);
      },
      (error: unknown) => {
        log.error({ err: error }, 'could not read a Slack request');
        if (!res.headersSent) answer(res, 500, { error: 'internal_error' });
      },
    );
  };
  return receiver;
}

/** Buffers the body (Bolt reuses it), and answers itself whatever Bolt should not see. */
async function screenRequest(req: IncomingMessage, res: ServerResponse, options: SlackReceiverOptions, log: Logger): Promise<boolean> {
  const { signingSecret } = options;
  let raw: string;
  try {
    raw = (await HTTPModuleFunctions.bufferIncomingMessage(req, HTTPModuleFunctions.defaultBodyLimit)).rawBody.toString();
  } catch (error) {
    if (
      HTTPModuleFunctions.isRawBodyError(error) &&
      ((error as { type?: string }).type === 'entity.too.large' || (error as { statusCode?: number }).statusCode === 413)
    ) {
      log.warn({ limit: HTTPModuleFunctions.defaultBodyLimit }, 'Slack request body too large');
      answer(res, 413, { error: 'body_too_large' });
      return false;
    }
    throw error;
  }
  const verdict = screenSlackBody(raw, req.headers['content-type']);
  if (verdict.action === 'pass') {
    // Kept before Bolt answers 200 (only what Slack signed): a process that dies after that loses nothing.
    if (options.beforeAck && signedBySlack(req, raw, signingSecret)) {
      const kept = await withinBudget(options.beforeAck(raw)).then(
        () => true,
        (error: unknown) => {
          log.error({ err: error }, 'could not keep a Slack event before acknowledging it; answered 503 so that Slack sends it again');
          return false;
        },
      );
      if (!kept) {
        answer(res, 503, { error: 'not_stored' });
        return false;
      }
    }
    return true;
  }
  if (!signedBySlack(req, raw, signingSecret)) {
    log.warn('refused a Slack request with a missing, wrong or stale signature');
    answer(res, 401);
    return false;
  }
  if (verdict.action === 'reject') {
    log.warn({ reason: verdict.reason }, "refused a signed Slack request that is not in Slack's format");
    answer(res, 400, { error: 'bad_request', message: `Not a Slack Events API or interactivity body: ${verdict.reason}.` });
    return false;
  }
  log.info({ reason: verdict.reason }, 'acknowledged a signed Slack request Wrench cannot act on');
  answer(res, 200);
  return false;
}

function signedBySlack(req: IncomingMessage, raw: string, signingSecret: string): boolean {
  const signature = req.headers['x-slack-signature'];
  const timestamp = Number(req.headers['x-slack-request-timestamp']);
  if (typeof signature !== 'string' || !Number.isFinite(timestamp)) return false;
  try {
    return isValidSlackRequest({ signingSecret, body: raw, headers: { 'x-slack-signature': signature, 'x-slack-request-timestamp': timestamp } });
  } catch {
    return false;
  }
}

function answer(res: ServerResponse, status: number, body?: Record<string, unknown>): void {
  if (body) {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  } else {
    res.writeHead(status);
    res.end();
  }
}

function withinBudget(work: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`took longer than ${BEFORE_ACK_BUDGET_MS} ms`)), BEFORE_ACK_BUDGET_MS);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
