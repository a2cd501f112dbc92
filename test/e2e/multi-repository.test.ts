import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appHomeOpenedEnvelope, appMentionEnvelope, blockActionsPayload } from '../fakes/slack-fake.js';
import { freePort } from '../helpers/free-port.js';
import { createE2eWorld, SIGNING_SECRET, type E2eWorld } from './e2e-world.js';
import { createFileStep, finishStep, scriptByRun } from './scripted-runs.js';
import { threadReply } from './thread-replies.js';

const CONFIG = `
channels:
  C0MULTI: { repos: [acme/web, acme/api], baseBranch: main }
sandbox: { mode: bwrap }
`;

type Button = { action_id: string; value: string; text: { text: string } };

/** A channel with several repositories, end to end: Wrench's service on the Slack, Anthropic and GitHub fakes, real git. */
describe('a channel with several repositories, end to end', () => {
  let world: E2eWorld;

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'web', {
      'src/components/Checkout.tsx': 'export function Checkout() {\n  return renderCartTotal();\n}\n',
      'README.md': 'Please recieve the web.\n',
    });
    await world.github.createRepo('acme', 'api', {
      'src/billing/retry.ts': 'export function retryPayment(times: number) {\n  return times;\n}\n',
      'README.md': 'Please recieve the api.\n',
    });
    world.anthropic.setScript(
      scriptByRun({
        'stop after 3 attempts': [createFileStep('src/billing/attempts.ts', 'export const MAX_ATTEMPTS = 3;\n'), finishStep('Capped the retries at 3.')],
        'rounding of the total': [createFileStep('src/components/round.ts', 'export const round = (n: number) => n.toFixed(2);\n'), finishStep('Rounded.')],
        'in README.md, it should say': [createFileStep('TYPO.md', 'receive\n'), finishStep('Fixed the typo.')],
        'also note the fix': [createFileStep('NOTES.md', 'typo fixed\n'), finishStep('Noted.')],
      }).items,
    );
    const port = await freePort();
    await world.start({
      PORT: String(port),
      WRENCH_PUBLIC_URL: `http://127.0.0.1:${port}`,
      WRENCH_RUN_LINK_SECRET: 'multi-repository-run-link-secret-0123456789',
    });
  });

  afterAll(async () => {
    await world?.stop();
  });

  const mention = async (text: string, thread?: string) => {
    const envelope = appMentionEnvelope({ channel: 'C0MULTI', user: 'U0ALICE', text: `<@U0BOT> ${text}`, ...(thread ? { thread_ts: thread } : {}) });
    expect((await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope)).status).toBe(200);
    return (envelope.event as { ts: string }).ts;
  };
  const branchHas = (repo: string, branch: string, file: string) =>
    execFileSync('git', ['--git-dir', world.github.gitDir('acme', repo), 'ls-tree', '-r', '--name-only', branch], { encoding: 'utf8' })
      .split('\n')
      .includes(file);

  it('a mention naming acme/api opens its pull request on api, not on web', async () => {
    const ts = await mention('acme/api: make retryPayment in src/billing/retry.ts stop after 3 attempts instead of retrying forever');
    const reply = await threadReply(world, ts, /\/pull\//, 120_000);
    expect(reply.text).toContain('/acme/api/pull/');
    const [pull] = world.github.pulls('acme', 'api');
    expect(pull).toBeDefined();
    expect(branchHas('api', pull!.headRef, 'src/billing/attempts.ts')).toBe(true);
    expect(world.github.pulls('acme', 'web')).toHaveLength(0);
    // The run's message names the repository it worked on.
    const stream = world.slack.streamsIn('C0MULTI', ts).at(-1);
    expect(stream?.planTitle).toBe('Done: acme/api');
  });

  it('a mention naming a path only web has runs on web', async () => {
    const ts = await mention('fix the rounding of the total shown in src/components/Checkout.tsx so that 0.1 + 0.2 shows 0.30');
    const reply = await threadReply(world, ts, /\/pull\//, 120_000);
    expect(reply.text).toContain('/acme/web/pull/');
    const [pull] = world.github.pulls('acme', 'web');
    expect(branchHas('web', pull!.headRef, 'src/components/round.ts')).toBe(true);
    expect(world.github.pulls('acme', 'api')).toHaveLength(1);
  });

  it('an ambiguous mention asks with buttons; pressing acme/api (twice) starts one run there; a follow-up stays on api', async () => {
    const [apiBefore, webBefore] = [world.github.pulls('acme', 'api').length, world.github.pulls('acme', 'web').length];
    const ts = await mention('fix the typo "recieve" in README.md, it should say "receive"');
    const card = await world.slack.waitFor(
      (c) =>
        c.method === 'chat.postMessage' &&
        c.args.thread_ts === ts &&
        Array.isArray(c.args.blocks) &&
        JSON.stringify(c.args.blocks).includes('wrench_repository_'),
      30_000,
    );
    const buttons = (card.args.blocks as Array<{ type: string; elements?: Button[] }>).flatMap((b) => (b.type === 'actions' ? (b.elements ?? []) : []));
    expect(buttons.map((b) => b.text.text)).toEqual(['acme/web', 'acme/api']);
    expect(world.anthropic.requests.some((r) => JSON.stringify(r.body).includes('recieve'))).toBe(false);

    const api = buttons.find((b) => b.text.text === 'acme/api')!;
    const press = () =>
      world.slack.deliverInteraction(
        world.eventsUrl(),
        SIGNING_SECRET,
        blockActionsPayload({
          user: 'U0ALICE',
          channel: 'C0MULTI',
          message_ts: String(card.args.ts ?? ts),
          thread_ts: ts,
          action_id: api.action_id,
          value: api.value,
        }),
      );
    const presses = await Promise.all([press(), press()]);
    expect(presses.map((p) => p.status)).toEqual([200, 200]);
    const reply = await threadReply(world, ts, /\/pull\//, 120_000);
    expect(reply.text).toContain('/acme/api/pull/');
    const pulls = world.github.pulls('acme', 'api');
    expect(pulls).toHaveLength(apiBefore + 1);
    expect(world.github.pulls('acme', 'web')).toHaveLength(webBefore);
    const typoPull = pulls.find((p) => branchHas('api', p.headRef, 'TYPO.md'))!;
    expect(typoPull).toBeDefined();
    // One run: the model was asked for it once (its first step once, its second once).
    const typoRequests = world.anthropic.requests.filter((r) => JSON.stringify(r.body).includes('in README.md, it should say'));
    expect(typoRequests).toHaveLength(2);
    // Its run page and the requester's App Home name the repository it worked on.
    const runLink = /\((http:\/\/127\.0\.0\.1:\d+\/runs\/[^)\s]+)\)/.exec(typoPull.body ?? '')?.[1];
    expect(runLink, typoPull.body ?? '').toBeDefined();
    const page = await (await fetch(runLink!)).text();
    expect(page).toContain('acme/api');
    expect(page).not.toContain('acme/web');
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, appHomeOpenedEnvelope({ user: 'U0ALICE' }));
    const home = await world.slack.waitFor(
      (c) => c.method === 'views.publish' && c.args.user_id === 'U0ALICE' && JSON.stringify(c.args.view).includes('typo'),
      20_000,
    );
    const view = (typeof home.args.view === 'string' ? JSON.parse(home.args.view) : home.args.view) as { blocks: unknown[] };
    // A run is its title, then a context line with its repository, thread, pull request and run page.
    const blocks = view.blocks.map((block) => JSON.stringify(block));
    const typoRun = blocks.findIndex((block) => block.includes('fix the typo'));
    expect(blocks[typoRun + 1]).toContain('`acme/api`');
    // The card says who chose which repository.
    await world.slack.waitFor((c) => c.method === 'chat.update' && String(c.args.text) === '<@U0ALICE> chose *acme/api*: starting there.', 10_000);

    // A follow-up in the thread stays on api (its branch and pull request), even naming a path only web has.
    const since = world.slack.calls.length;
    await mention('also note the fix in NOTES.md, next to src/components/Checkout.tsx', ts);
    await threadReply(world, ts, /Noted|NOTES|pull/, 120_000, since);
    await expect.poll(() => branchHas('api', typoPull.headRef, 'NOTES.md'), { timeout: 30_000 }).toBe(true);
    expect(world.github.pulls('acme', 'api')).toHaveLength(apiBefore + 1);
    expect(world.github.pulls('acme', 'web')).toHaveLength(webBefore);
  });
});
