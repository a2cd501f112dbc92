import type { WebClient } from '@slack/web-api';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleAppMention } from '../../../handlers/app-mention.js';
import type { HandlerDeps } from '../../../handlers/handler-deps.js';
import { handleRepositoryChoice } from '../../../handlers/repository-choice.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { jobIdFor } from '../../../src/queue/task-job.js';
import { pickByTree } from '../../../src/repository/pick-by-tree.js';
import { decodeRepositoryChoice, REPOSITORY_ACTION } from '../../../src/slack/action-ids.js';
import type { SlackFake } from '../../fakes/slack-fake.js';
import { pollFor } from '../../fakes/shared/wait-for.js';
import { git, makeRepo } from '../../helpers/git-repo.js';
import { startHandlerWorld, type HandlerWorld } from '../../helpers/handler-world.js';
import { uniqueName } from '../../helpers/unique-name.js';

const CONFIG = `
channels:
  C0MULTI: { repos: [acme/web, acme/api], baseBranch: main }
access:
  approvers: [U0BOSS]
`;

const WEB = { owner: 'acme', name: 'web', baseBranch: 'main' };
const API = { owner: 'acme', name: 'api', baseBranch: 'main' };

type Button = { action_id: string; value: string; text: { text: string } };

/**
 * A channel with several repositories, through the mention handler, the repository buttons and thread replies, with
 * real Redis, the Slack fake and real git remotes (file://) the picker mirrors and reads.
 */
describe('a channel with several repositories', () => {
  let world: HandlerWorld;
  let slack: SlackFake;
  let deps: HandlerDeps;
  let client: WebClient;
  let ts = 1700001000;

  beforeAll(async () => {
    world = await startHandlerWorld('multirepo');
    ({ slack, client } = world);
    const remotes = path.join(world.dir.path, 'remotes');
    const trees: Record<string, Record<string, string>> = {
      web: { 'src/components/Checkout.tsx': 'export function Checkout() { return renderCartTotal(); }\n', 'README.md': 'web\n' },
      api: { 'src/billing/retry.ts': 'export function retryPayment(times: number) { return times; }\n', 'README.md': 'api\n' },
    };
    for (const [name, files] of Object.entries(trees)) {
      const work = makeRepo(path.join(world.dir.path, 'work', name), files);
      git(path.dirname(work), 'clone', '-q', '--bare', work, path.join(remotes, 'acme', `${name}.git`));
    }
    const configPath = path.join(world.dir.path, 'multi.yml');
    writeFileSync(configPath, CONFIG);
    const config = loadConfig(
      { WRENCH_CONFIG: configPath, WRENCH_QUEUE_PREFIX: uniqueName('multirepo'), WRENCH_DATA_DIR: path.join(world.dir.path, 'data') },
      world.dir.path,
    );
    deps = {
      ...world.deps,
      config,
      pickRepository: (text, candidates) => pickByTree(text, candidates, { dataDir: config.dataDir, gitBaseUrl: `file://${remotes}`, timeoutMs: 15_000 }),
    };
  });

  afterAll(async () => {
    await world?.stop();
  });

  const mention = async (text: string, options: { thread?: string; user?: string } = {}) => {
    const messageTs = `${ts++}.000100`;
    const eventId = uniqueName('Ev');
    const outcome = await handleAppMention(
      {
        eventId,
        botUserId: 'U0BOT',
        event: { channel: 'C0MULTI', user: options.user ?? 'U0ALICE', text: `<@U0BOT> ${text}`, ts: messageTs, thread_ts: options.thread },
        client,
      },
      deps,
    );
    return { outcome, messageTs, threadTs: options.thread ?? messageTs, jobId: jobIdFor('run', eventId) };
  };
  const queuedRepo = async (jobId: string) => (await deps.queues.tasks.getJob(jobId))?.data.repo;
  const buttonsIn = async (threadTs: string) => {
    const card = await slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === threadTs && Array.isArray(c.args.blocks), 10_000);
    const blocks = card.args.blocks as Array<{ type: string; elements?: Button[] }>;
    return { card, buttons: blocks.find((b) => b.type === 'actions')?.elements ?? [] };
  };

  it('a mention naming acme/api (or just api) runs on api; the status names it and the thread records it', async () => {
    const named = await mention(
      'acme/api: make retryPayment in src/billing/retry.ts stop after 3 attempts; the web client in src/components/Checkout.tsx expects that',
    );
    expect(named.outcome).toBe('queued');
    expect(await queuedRepo(named.jobId)).toEqual(API);
    expect((await deps.sessions.get('C0MULTI', named.threadTs))?.repo).toEqual(API);
    const reading = await slack.waitFor((c) => c.method === 'assistant.threads.setStatus' && c.args.thread_ts === named.threadTs, 10_000);
    expect(reading.args.loading_messages).toContain('Looking at acme/api…');

    const short = await mention(
      'in api, make retryPayment in src/billing/retry.ts stop after 3 attempts; the client in src/components/Checkout.tsx expects that',
    );
    expect(short.outcome).toBe('queued');
    expect(await queuedRepo(short.jobId)).toEqual(API);
  });

  it('a mention naming a path or a symbol only one repository has runs on that one, read from its tree', async () => {
    const byPath = await mention('fix the rounding of the total shown in src/components/Checkout.tsx so 0.1 + 0.2 shows 0.30');
    expect(byPath.outcome).toBe('queued');
    expect(await queuedRepo(byPath.jobId)).toEqual(WEB);

    const bySymbol = await mention('make retryPayment stop after 3 attempts instead of retrying forever');
    expect(bySymbol.outcome).toBe('queued');
    expect(await queuedRepo(bySymbol.jobId)).toEqual(API);
  });

  it('an ambiguous mention gets one button per repository; pressing acme/api twice starts it there once', async () => {
    const asked = await mention('fix the typo "recieve" in README.md, it should say "receive"');
    expect(asked.outcome).toBe('choosing');
    const { card, buttons } = await buttonsIn(asked.threadTs);
    expect(card.args.text).toBe(
      'This channel works on several repositories, and I cannot tell which one this request is for. Press the one to work on, or reply here naming it.',
    );
    expect(buttons.map((b) => b.text.text)).toEqual(['acme/web', 'acme/api']);
    expect(buttons.every((b) => REPOSITORY_ACTION.test(b.action_id))).toBe(true);
    expect(new Set(buttons.map((b) => b.action_id)).size).toBe(2);
    expect(await deps.queues.tasks.getJob(asked.jobId)).toBeUndefined();
    const held = await deps.sessions.get('C0MULTI', asked.threadTs);
    expect(held?.repo).toBeUndefined();
    expect(held?.pending).toMatchObject({ verdict: 'repository', repositories: ['acme/web', 'acme/api'], requester: 'U0ALICE' });

    const api = buttons.find((b) => b.text.text === 'acme/api')!;
    expect(decodeRepositoryChoice(api.value)).toEqual({ channel: 'C0MULTI', threadTs: asked.threadTs, repository: 'acme/api' });
    // Someone who neither asked nor approves cannot choose.
    expect(await handleRepositoryChoice({ client, user: 'U0MALLORY', value: api.value }, deps)).toBe('not_allowed');
    const refused = await slack.waitFor((c) => c.method === 'chat.postEphemeral' && c.args.user === 'U0MALLORY', 10_000);
    expect(String(refused.args.text)).toBe('Only the person who asked, or an approver, can choose the repository.');

    // Two presses at once: one starts the run, the other is told it is under way or gone.
    const outcomes = await Promise.all([
      handleRepositoryChoice({ client, user: 'U0ALICE', value: api.value }, deps),
      handleRepositoryChoice({ client, user: 'U0ALICE', value: api.value }, deps),
    ]);
    expect(outcomes.sort()).toEqual(['queued', 'stale']);
    const jobs = (await deps.queues.tasks.getJobs(['waiting', 'delayed', 'prioritized'])).filter(
      (job) => job.data.origin.type === 'slack' && job.data.origin.threadTs === asked.threadTs,
    );
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.data.repo).toEqual(API);
    expect(jobs[0]!.data.instruction).toBe('fix the typo "recieve" in README.md, it should say "receive"');
    const session = await deps.sessions.get('C0MULTI', asked.threadTs);
    expect(session?.repo).toEqual(API);
    expect(session?.pending).toBeUndefined();
    const cardTs = slack.messages('C0MULTI', asked.threadTs).find((m) => m.bot_id && String(m.text).startsWith('<@U0ALICE> chose'))?.ts;
    const chosen = await slack.waitFor((c) => c.method === 'chat.update' && c.args.ts === cardTs, 10_000);
    expect(String(chosen.args.text)).toBe('<@U0ALICE> chose *acme/api*: starting there.');
    // A later press of the other button starts nothing.
    const web = buttons.find((b) => b.text.text === 'acme/web')!;
    expect(await handleRepositoryChoice({ client, user: 'U0ALICE', value: web.value }, deps)).toBe('stale');

    // A follow-up in the thread stays on the thread's repository, even naming a path only web has.
    await deps.sessions.update(
      'C0MULTI',
      asked.threadTs,
      (current) => current && { ...current, runs: current.runs.map((run) => ({ ...run, status: 'done' as const })) },
    );
    const followUp = await mention('also fix the same typo in src/components/Checkout.tsx', { thread: asked.threadTs });
    expect(followUp.outcome).toBe('queued');
    expect(await queuedRepo(followUp.jobId)).toEqual(API);
  });

  it('a reply naming one of the repositories starts the held request there; one naming none is asked to choose', async () => {
    const asked = await mention('fix the typo "teh" in README.md, it should say "the"');
    expect(asked.outcome).toBe('choosing');
    await buttonsIn(asked.threadTs);
    const vague = await mention('the usual one', { thread: asked.threadTs });
    expect(vague.outcome).toBe('clarifying');
    const told = await slack.waitFor((c) => c.method === 'chat.postEphemeral' && c.args.thread_ts === asked.threadTs, 10_000);
    expect(String(told.args.text)).toContain('name one of acme/web, acme/api in your reply');
    const named = await mention('web', { thread: asked.threadTs });
    expect(named.outcome).toBe('queued');
    expect(await queuedRepo(named.jobId)).toEqual(WEB);
    expect((await deps.sessions.get('C0MULTI', asked.threadTs))?.repo).toEqual(WEB);
  });

  it('the card is posted even when the session holds no repository yet, and a stale press after the thread ended is refused', async () => {
    const asked = await mention('update the copyright year in README.md to 2027');
    expect(asked.outcome).toBe('choosing');
    const { buttons } = await buttonsIn(asked.threadTs);
    await deps.sessions.end('C0MULTI', asked.threadTs);
    expect(await handleRepositoryChoice({ client, user: 'U0ALICE', value: buttons[0]!.value }, deps)).toBe('stale');
    await pollFor(
      async () => slack.calls.find((c) => c.method === 'chat.postEphemeral' && c.args.thread_ts === asked.threadTs),
      10_000,
      () => 'no ephemeral',
    );
  });
});
