import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appMentionEnvelope } from '../fakes/slack-fake.js';
import { toolUseResponse } from '../fakes/anthropic-fake.js';
import { createE2eWorld, GITHUB_TOKEN, SIGNING_SECRET, type E2eWorld } from './e2e-world.js';
import { pollFor } from '../fakes/shared/wait-for.js';
import { threadReply } from './thread-replies.js';
import { bashStep, createFileStep, scriptByRun } from './scripted-runs.js';

const CONFIG = `
channels:
  C0LEAK: { repo: acme/leaky, baseBranch: main }
  C0CLEAN: { repo: acme/clean, baseBranch: main }
repos: [acme/*]
sandbox: { mode: bwrap }
git: { name: Acme Bot, email: bot@acme.example }
`;

/** An AWS access key id shaped like a real one (not AWS's documented example, which scanners allow). */
const AWS_KEY_ID = 'AKIAZ7QWERTYUIOPASDF';

/** The worker's host id, as Kubernetes names a worker pod. */
const HOST_ID = 'wrench-worker-3';

const finish = (summary: string) =>
  toolUseResponse([{ name: 'finish_task', input: { summary, verification: 'looked at the files', filesChanged: [], openQuestions: [] } }]);

describe('clean commits: what reaches the remote', () => {
  let world: E2eWorld;
  // A bundle held 15 days ago (over the 14-day default) and one held yesterday, there before Wrench starts.
  const heldDir = () => path.join(world.env.WRENCH_DATA_DIR!, 'held');
  const expired = () => path.join(heldDir(), 'wrench-old-0123456789ab.bundle');
  const recent = () => path.join(heldDir(), 'wrench-recent-0123456789ab.bundle');
  const git = (repo: string, ...args: string[]) => execFileSync('git', ['--git-dir', world.github.gitDir('acme', repo), ...args], { encoding: 'utf8' });

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'leaky', { 'README.md': '# leaky\n' });
    await world.github.createRepo('acme', 'clean', { 'README.md': '# clean\n' });
    world.anthropic.setScript(
      scriptByRun({
        'leak marker': [
          createFileStep('config/dev.env', `# development settings\nAPI_URL=http://localhost:3000\nGITHUB=${GITHUB_TOKEN}\nAWS_ACCESS_KEY_ID=${AWS_KEY_ID}\n`),
          bashStep(`git add -A && git -c user.name=a -c user.email=a@b commit -q -m "use token ${GITHUB_TOKEN}" && git log --oneline | head -3`),
          finish('Added the development settings.'),
        ],
        'clean marker': [
          createFileStep('src/one.js', 'export const one = 1;\n'),
          bashStep('git add -A && git -c user.name=a -c user.email=a@b commit -q -m "Add one" && git log -1 --format="%an <%ae>"'),
          createFileStep('src/two.js', 'export const two = 2;\n'),
          finish('Added one and two.'),
        ],
      }).items,
    );
    mkdirSync(heldDir(), { recursive: true, mode: 0o700 });
    for (const [file, daysAgo] of [
      [expired(), 15],
      [recent(), 1],
    ] as const) {
      writeFileSync(file, 'bundle', { mode: 0o600 });
      const at = new Date(Date.now() - daysAgo * 86_400_000);
      utimesSync(file, at, at);
    }
    // Named as on Kubernetes (the pod's name): the thread says which worker keeps a refused push's bundle.
    await world.start({ WRENCH_HOST_ID: HOST_ID });
  });

  afterAll(async () => {
    if (process.env.WRENCH_E2E_DEBUG) console.log(world?.wrench?.output());
    await world?.stop();
  });

  const mention = async (channel: string, text: string) => {
    const envelope = appMentionEnvelope({ channel, user: 'U0ALICE', text: `<@U0BOT> ${text}` });
    expect((await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope)).status).toBe(200);
    return (envelope.event as { ts: string }).ts;
  };

  it('an agent that writes the GitHub token into a file and a commit message pushes nothing; the work is kept as a local bundle; the thread names file, line and bundle, never the value', async () => {
    const mainBefore = git('leaky', 'rev-parse', 'refs/heads/main').trim();
    const ts = await mention('C0LEAK', 'leak marker: add config/dev.env with the development settings');
    const reply = await threadReply(world, ts, /did not push/, 90_000);
    const text = reply.text;
    expect(text).toContain("`config/dev.env` line 3 holds Wrench's own GITHUB_TOKEN");
    expect(text).toContain('`config/dev.env` line 4 holds what looks like an AWS credential');
    expect(text).toMatch(/the message of commit [0-9a-f]{12} \(line 1\) holds Wrench's own GITHUB_TOKEN/);
    expect(text).toContain('mention me to retry');

    // The remote: only main, unchanged; no object anywhere holds the token; no pull request.
    expect(git('leaky', 'for-each-ref', '--format=%(refname)').trim().split('\n')).toEqual(['refs/heads/main']);
    expect(git('leaky', 'rev-parse', 'refs/heads/main').trim()).toBe(mainBefore);
    const everything = git('leaky', 'cat-file', '--batch-all-objects', '--batch');
    expect(everything).not.toContain(GITHUB_TOKEN);
    expect(everything).not.toContain(AWS_KEY_ID);
    expect(world.github.pulls('acme', 'leaky')).toHaveLength(0);

    // The refused commits are kept on this worker as a bundle (owner-only); the thread names the worker by its host id
    // (with several workers only this one has it) and the bundle by id, never by its path on the machine, for 14
    // days, and says how an operator gets them.
    const id = new RegExp(`kept on Wrench worker \`${HOST_ID}\` as held bundle \`([^\`]+)\` for 14 days`).exec(text)?.[1];
    expect(id).toBeDefined();
    expect(text).toContain('`wrench doctor` on that worker lists them');
    expect(text).not.toContain(world.env.WRENCH_DATA_DIR!);
    const held = path.join(heldDir(), `${id}.bundle`);
    expect(statSync(held).mode & 0o777).toBe(0o600);
    const [, ref] = new RegExp(`\`git fetch "\\$WRENCH_DATA_DIR/held/${id}\\.bundle" (\\S+)\``).exec(text) ?? [];
    expect(ref).toBeDefined();
    expect(git('leaky', 'bundle', 'list-heads', held!)).toContain(` ${ref}`);
    expect(git('leaky', 'bundle', 'verify', '--quiet', held!)).toBe('');
    const clone = mkdtempSync(path.join(tmpdir(), 'wrench-held-'));
    execFileSync('git', ['clone', '--quiet', world.github.gitDir('acme', 'leaky'), clone]);
    execFileSync('git', ['fetch', '--quiet', held!, ref!], { cwd: clone });
    expect(execFileSync('git', ['show', 'FETCH_HEAD:config/dev.env'], { cwd: clone, encoding: 'utf8' })).toContain(`AWS_ACCESS_KEY_ID=${AWS_KEY_ID}`);
    // Still nothing on the remote.
    expect(git('leaky', 'for-each-ref', '--format=%(refname)').trim().split('\n')).toEqual(['refs/heads/main']);

    // Nor did Slack get the value, anywhere.
    expect(JSON.stringify(world.slack.calls)).not.toContain(GITHUB_TOKEN);
    expect(JSON.stringify(world.slack.calls)).not.toContain(AWS_KEY_ID);
    // The run's record (its page) names the worker and the bundle as the thread does.
    const redis = new Redis(world.redis.url);
    try {
      const recorded = async () => {
        const keys = await redis.keys(`${world.env.WRENCH_QUEUE_PREFIX}:runlog:*:entries`);
        return (await Promise.all(keys.map((key) => redis.lrange(key, 0, -1)))).flat().join('\n');
      };
      await expect.poll(recorded, { timeout: 10_000 }).toContain(`kept on Wrench worker \`${HOST_ID}\` as held bundle \`${id}\``);
    } finally {
      redis.disconnect();
    }
  });

  it('held bundles kept longer than WRENCH_HELD_RETENTION_DAYS (14) are removed when Wrench starts; newer ones stay', async () => {
    await pollFor(
      () => (existsSync(expired()) ? undefined : true),
      10_000,
      () => 'the expired held bundle to be removed',
    );
    expect(existsSync(recent())).toBe(true);
    expect(world.wrench!.output()).toContain('removed 1 held bundle(s) kept longer than 14 days');
  });

  it("a normal run's commits reach the remote authored and committed by the configured bot identity, crediting the requester", async () => {
    const ts = await mention('C0CLEAN', 'clean marker: add src/one.js and src/two.js');
    await threadReply(world, ts, /\/pull\//, 90_000);
    const [pull] = world.github.pulls('acme', 'clean');
    const log = git('clean', 'log', '--format=%H%x00%an <%ae>%x00%cn <%ce>%x00%B%x01', `refs/heads/main..refs/heads/${pull!.headRef}`);
    const commits = log
      .split('\x01')
      .map((entry) => entry.trim())
      .filter(Boolean)
      .map((entry) => entry.split('\0'));
    // The agent's own commit ("a <a@b>") and Wrench's commit of what was left.
    expect(commits).toHaveLength(2);
    for (const [, author, committer, message] of commits) {
      expect(author).toBe('Acme Bot <bot@acme.example>');
      expect(committer).toBe('Acme Bot <bot@acme.example>');
      expect(message).toContain('Co-authored-by: user-u0alice <user-u0alice@example.com>');
    }
    expect(git('clean', 'log', '--format=%an %ae %cn %ce', `refs/heads/${pull!.headRef}`)).not.toContain('a@b');
    expect(git('clean', 'log', '--format=%an %ae %cn %ce', `refs/heads/main..refs/heads/${pull!.headRef}`)).not.toContain('wrench@users.noreply.github.com');
    expect(git('clean', 'show', `${pull!.headRef}:src/one.js`)).toContain('export const one = 1;');
    expect(git('clean', 'show', `${pull!.headRef}:src/two.js`)).toContain('export const two = 2;');
  });
});
