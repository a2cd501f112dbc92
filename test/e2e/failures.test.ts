import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { Redis } from 'ioredis';
import { ThreadSessionStore } from '../../src/sessions/thread-session-store.js';
import { appMentionEnvelope } from '../fakes/slack-fake.js';
import { errorResponse, toolUseResponse } from '../fakes/anthropic-fake.js';
import { createE2eWorld, SIGNING_SECRET, type E2eWorld } from './e2e-world.js';
import { threadReply } from './thread-replies.js';

const CONFIG = `
channels:
  C0DEV: { repo: acme/web }
  C0GONE: { repo: acme/gone }
sandbox: { mode: bwrap }
`;

const finishWithFile = (path: string) => [
  toolUseResponse([{ name: 'str_replace_based_edit_tool', input: { command: 'create', path, file_text: 'export const x = 1;\n' } }]),
  toolUseResponse([{ name: 'finish_task', input: { summary: 'Added a file.', verification: 'none needed', filesChanged: [], openQuestions: [] } }]),
];

describe('failures end with a thread reply that says why, and leave nothing half-made', () => {
  let world: E2eWorld;

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'web', { 'README.md': '# web\n', 'src/index.js': 'export {};\n' });
    await world.start();
  });

  afterAll(async () => {
    await world?.stop();
  });

  const mention = async (text: string) => {
    const envelope = appMentionEnvelope({ channel: 'C0DEV', user: 'U0ALICE', text: `<@U0BOT> ${text}` });
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    return (envelope.event as { ts: string }).ts;
  };

  it('a triage a German requester asked for that fails says so in German', async () => {
    world.slack.addUser({ id: 'U0HANS', name: 'hans', locale: 'de-DE' });
    const envelope = appMentionEnvelope({ channel: 'C0GONE', user: 'U0HANS', text: '<@U0BOT> triage: checkout returns 500 on POST /pay since 14:05 UTC' });
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    const ts = (envelope.event as { ts: string }).ts;
    // The repository is not there: cloning fails for good at once (not retried), said in the requester's language.
    const reply = await threadReply(world, ts, /Triage ist fehlgeschlagen/, 30_000);
    expect(reply.text).toBe(
      ':x: Die Triage ist fehlgeschlagen. Der Lauf ist fehlgeschlagen: acme/gone wurde nicht gefunden, oder Wrenchs GitHub-Zugang darf es nicht lesen: prüfe das mit diesem Channel verknüpfte Repository (wrench.config.yml) und ob Wrench Zugriff darauf hat.',
    );
  });

  it('a task on a repository that is not there (or cannot be read) says so plainly, without git output or paths', async () => {
    const envelope = appMentionEnvelope({
      channel: 'C0GONE',
      user: 'U0ALICE',
      text: '<@U0BOT> add a `version` export to src/index.js that returns "1.0". Follow the existing style.',
    });
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    const reply = await threadReply(world, (envelope.event as { ts: string }).ts, /was not found/, 30_000);
    expect(reply.text).toContain("acme/gone was not found, or Wrench's GitHub credentials cannot read it");
    expect(reply.text).not.toMatch(/git clone|\/tmp\/|exit 128/);
  });

  it('reports a model API that keeps failing', async () => {
    world.anthropic.setScript(Array.from({ length: 8 }, () => errorResponse(500)));
    const ts = await mention('add a `version` export to src/index.js that returns "1.0". Follow the existing style.');
    const reply = await threadReply(world, ts, /model API failed/, 60_000);
    expect(reply.text).toMatch(/HTTP 500/);
    expect(world.github.pulls('acme', 'web')).toHaveLength(0);
  });

  it('takes the pushed branch back when GitHub refuses the pull request', async () => {
    world.anthropic.setScript(finishWithFile('src/version.js'));
    world.github.failNext('POST /repos/acme/web/pulls', { status: 422, body: { message: 'Validation Failed', errors: [{ message: 'base invalid' }] } });
    const ts = await mention('add src/version.js exporting `x = 1`. Keep it to that file.');
    const reply = await threadReply(world, ts, /GitHub rejected the pull request/, 150_000);
    expect(reply.text).toMatch(/GitHub rejected the pull request \(HTTP 422\)/);
    expect(world.github.pulls('acme', 'web')).toHaveLength(0);
    const branches = execFileSync('git', ['--git-dir', world.github.gitDir('acme', 'web'), 'branch', '--list', 'wrench/*'], { encoding: 'utf8' });
    expect(branches.trim()).toBe('');
    // The run had recorded its pushed branch (for an attempt after a restart); taken back, the record no longer names it.
    const redis = new Redis(world.redis.url);
    try {
      const session = await new ThreadSessionStore(redis, world.env.WRENCH_QUEUE_PREFIX!).get('C0DEV', ts);
      expect(session?.runs).toHaveLength(1);
      expect(session?.runs[0]).toMatchObject({ status: 'failed' });
      expect(session?.runs[0]?.branch).toBeUndefined();
      expect(session?.branch).toBeUndefined();
    } finally {
      redis.disconnect();
    }
  });
});
