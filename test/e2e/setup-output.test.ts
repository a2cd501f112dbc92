import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appMentionEnvelope } from '../fakes/slack-fake.js';
import { createE2eWorld, type E2eWorld, SIGNING_SECRET } from './e2e-world.js';
import { createFileStep, finishStep, scriptByRun } from './scripted-runs.js';
import { threadReply } from './thread-replies.js';

/**
 * Issue 44 item 15 through a real `wrench start` and a real git remote: a repository with dependencies and no
 * .gitignore, whose setup step (a real `npm install`) fills node_modules/ and writes package-lock.json. The dependency
 * is a package kept in the repository (`file:`, copied in by --install-links, so no registry is needed) that carries a
 * test fixture with a password in it, as the real one did. What the setup step made is never the agent's change: an
 * answer without edits pushes nothing, one edit pushes that file alone. Without the fix both runs pushed
 * node_modules/fixture-kit/… and package-lock.json (the first opened a pull request of 5 files for "Nothing to change.").
 */
const CONFIG = `
channels:
  C0KIT: { repo: acme/kit, baseBranch: main }
repos: [acme/*]
verification:
  acme/kit: { setup: "npm install --no-audit --no-fund --install-links" }
sandbox: { mode: bwrap }
`;

const FIXTURE = JSON.stringify({ user: 'admin', password: 'Tr0ub4dor&3-s3cr3t-Passw0rd!' }, null, 2);

describe("the setup step's output is never the change (a repository without .gitignore)", () => {
  let world: E2eWorld;
  const git = (...args: string[]) => execFileSync('git', ['--git-dir', world.github.gitDir('acme', 'kit'), ...args], { encoding: 'utf8' });
  const branches = () => git('for-each-ref', '--format=%(refname:short) %(objectname)', 'refs/heads').trim().split('\n').sort();
  const mention = async (text: string) => {
    const envelope = appMentionEnvelope({ channel: 'C0KIT', user: 'U0ALICE', text: `<@U0BOT> ${text}` });
    expect((await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope)).status).toBe(200);
    return (envelope.event as { ts: string }).ts;
  };

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'kit', {
      'package.json': JSON.stringify(
        { name: 'kit', version: '1.0.0', scripts: { test: 'node --test' }, dependencies: { 'fixture-kit': 'file:vendor/fixture-kit' } },
        null,
        2,
      ),
      'src/index.js': "const kit = require('fixture-kit');\nmodule.exports = kit;\n",
      'vendor/fixture-kit/package.json': JSON.stringify({ name: 'fixture-kit', version: '1.0.0', main: 'index.js' }, null, 2),
      'vendor/fixture-kit/index.js': 'module.exports = { ok: true };\n',
      'vendor/fixture-kit/test/fixtures/login.json': `${FIXTURE}\n`,
    });
    world.anthropic.setScript(
      scriptByRun({
        'nothing marker': [finishStep('Nothing to change.')],
        'edit marker': [createFileStep('src/greet.js', "module.exports = () => 'hello';\n"), finishStep('Added src/greet.js.')],
      }).items,
    );
    await world.start();
  }, 90_000);

  afterAll(async () => {
    await world?.stop();
  });

  it('an answer with no edits pushes nothing: no branch, no commit, no pull request, and the thread says no files changed', async () => {
    const before = branches();
    const ts = await mention('nothing marker: add `module.exports = kit;` at the end of src/index.js');
    const reply = await threadReply(world, ts, /No files changed|Nothing to change|failed/i, 150_000).catch((error: Error) => {
      const posted = world.slack.callsTo('chat.postMessage').filter((c) => c.args.thread_ts === ts);
      throw new Error(`${error.message}; posted: ${JSON.stringify(posted.map((c) => c.args.text))}`);
    });
    expect(reply.text).toContain('No files changed, so no pull request.');
    expect(reply.text).toContain('Nothing to change.');
    expect(reply.text).not.toMatch(/node_modules|failed|secret/i);
    expect(branches()).toEqual(before);
    expect(world.github.pulls('acme', 'kit')).toEqual([]);
    expect(world.github.requests.filter((r) => r.method === 'POST' && /\/pulls$/.test(r.path))).toEqual([]);
  }, 200_000);

  it('one edit pushes a commit holding exactly that file: no node_modules/, no lock file the install wrote', async () => {
    const ts = await mention('edit marker: add src/greet.js exporting a greeting');
    const reply = await threadReply(world, ts, /\/pull\/|failed/i, 150_000);
    expect(reply.text).toMatch(/\/pull\/\d+/);
    const pull = world.github.pulls('acme', 'kit').at(-1)!;
    expect(pull).toBeDefined();
    const changed = git('diff', '--name-only', `main...refs/heads/${pull.headRef}`).trim().split('\n');
    expect(changed).toEqual(['src/greet.js']);
    const tree = git('ls-tree', '-r', '--name-only', `refs/heads/${pull.headRef}`);
    expect(tree).not.toMatch(/node_modules|package-lock\.json/);
  }, 200_000);
});
