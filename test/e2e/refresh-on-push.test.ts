import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { deliverGitHubWebhook } from '../fakes/github-webhook-sender.js';
import { appMentionEnvelope } from '../fakes/slack-fake.js';
import { createE2eWorld, SIGNING_SECRET, type E2eWorld } from './e2e-world.js';
import { threadReply } from './thread-replies.js';
import { createFileStep, finishStep, scriptByRun } from './scripted-runs.js';

const CONFIG = `
channels:
  C0DEV: { repo: acme/app }
sandbox: { mode: none }
`;
const WEBHOOK_SECRET = 'e2e-push-webhook-secret';

describe('a push to the base branch brings the pooled working tree up to date before the next job', () => {
  let world: E2eWorld;

  const deliver = (event: string, payload: unknown) => deliverGitHubWebhook(`${world.wrench!.url}/github/webhook`, event, payload, { secret: WEBHOOK_SECRET });
  const mention = async (text: string) => {
    const envelope = appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: `<@U0BOT> ${text}` });
    const threadTs = (envelope.event as { ts: string }).ts;
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    return threadTs;
  };
  const opened = (threadTs: string) => threadReply(world, threadTs, /Opened PR #/, 120_000);
  /** The pool's one tree of acme/app, as the pool records it on disk. */
  const treeState = async () => {
    const root = path.join(world.env.WRENCH_DATA_DIR!, 'trees');
    const [pool] = (await readdir(root).catch(() => [] as string[])).filter((name) => name.startsWith('acme+app-'));
    if (!pool) return undefined;
    const text = await readFile(path.join(root, pool, '0.json'), 'utf8').catch(() => undefined);
    return text ? (JSON.parse(text) as { startSha: string; released?: boolean; refs: string }) : undefined;
  };
  const gitCommands = (from: number, until: number) =>
    world.github.requests
      .filter((r) => r.at >= from && r.at <= until && /git-upload-pack$/.test(r.path) && r.method === 'POST')
      .map((r) => (r.body as { command?: string } | undefined)?.command);

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'app', { 'README.md': '# app\n', 'src/index.js': 'export const a = 1;\n' });
    await world.start({ GITHUB_WEBHOOK_SECRET: WEBHOOK_SECRET });
    world.anthropic.setScript(
      scriptByRun({
        'greeting module': [createFileStep('src/greeting.js', "export const greet = () => 'hi';\n"), finishStep('Added the greeting module.')],
        'farewell module': [createFileStep('src/farewell.js', "export const bye = () => 'bye';\n"), finishStep('Added the farewell module.')],
      }).items,
    );
  }, 120_000);

  afterAll(async () => {
    await world?.stop();
  });

  it('pushes elsewhere are answered 200 and left alone', async () => {
    const main = (await world.github.branchSha('acme', 'app', 'main'))!;
    await world.github.commit('acme', 'app', 'topic', { message: 'topic work', files: { 'topic.txt': 'x\n' } });
    const topic = await deliver('push', await world.github.payloads.push('acme', 'app', 'topic', main));
    expect([topic.status, JSON.parse(topic.body).reason]).toEqual([200, 'a push to topic, not to a base branch Wrench works from']);
    const tag = await deliver('push', { ...(await world.github.payloads.push('acme', 'app', 'main', main)), ref: 'refs/tags/v1.0.0' });
    expect([tag.status, JSON.parse(tag.body).reason]).toEqual([200, 'a push to refs/tags/v1.0.0, not to a branch']);
    await world.github.createRepo('acme', 'other', { 'README.md': '# other\n' });
    const other = await deliver('push', await world.github.payloads.push('acme', 'other', 'main', (await world.github.branchSha('acme', 'other', 'main'))!));
    expect([other.status, JSON.parse(other.body).reason]).toEqual([200, 'not a repository linked to a channel']);
  });

  it('the next job finds its tree at the new tip and asks GitHub only whether anything changed', async () => {
    await opened(await mention('add a greeting module in src/greeting.js exporting `greet`.'));
    const branch = world.github.pulls('acme', 'app')[0]!.headRef;
    // Back in the pool, and refreshed after its job (the tree has fetched the branch the job pushed): nothing moves it now.
    const first = await vi.waitFor(
      async () => {
        const state = await treeState();
        if (!state?.released || !state.refs.includes(`refs/remotes/origin/${branch}\n`)) throw new Error('the tree is not back in the pool yet');
        return state;
      },
      { timeout: 60_000, interval: 50 },
    );

    const before = (await world.github.branchSha('acme', 'app', 'main'))!;
    expect(first.startSha).toBe(before);
    const after = await world.github.commit('acme', 'app', 'main', { message: 'upstream change', files: { 'src/upstream.js': 'export const u = 2;\n' } });
    const delivery = await deliver('push', await world.github.payloads.push('acme', 'app', 'main', before, 'bob'));
    expect(delivery.status).toBe(202);
    // The tree moves to the pushed commit before any job asks for it.
    await vi.waitFor(async () => expect((await treeState())?.startSha).toBe(after), { timeout: 30_000, interval: 50 });

    const models = world.anthropic.requests.length;
    const sent = Date.now();
    await mention('add a farewell module in src/farewell.js exporting `bye`.');
    await vi.waitFor(() => expect(world.anthropic.requests.length).toBeGreaterThan(models), { timeout: 60_000, interval: 20 });
    const firstModelRequest = world.anthropic.requests[models]!.at;
    // One ls-refs to learn nothing moved since: no fetch into the mirror or the tree between the mention and the model.
    expect(gitCommands(sent, firstModelRequest)).toEqual(['ls-refs']);
    const prompt = JSON.stringify(world.anthropic.requests[models]!.body);
    expect(prompt).toContain('farewell module');
  });
});
