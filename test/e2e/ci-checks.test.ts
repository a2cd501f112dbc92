import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolUseResponse } from '../fakes/anthropic-fake.js';
import { appMentionEnvelope } from '../fakes/slack-fake.js';
import { LEGACY_NODE_MAJOR, legacyNodeRepoFiles, TEST_RUNTIMES_DIR } from '../helpers/legacy-node-repo.js';
import { runWrench } from '../helpers/wrench-process.js';
import { makeRepo } from '../helpers/git-repo.js';
import { ANTHROPIC_KEY, createE2eWorld, type E2eWorld, SIGNING_SECRET } from './e2e-world.js';
import { threadReply } from './thread-replies.js';

const CONFIG = `
channels:
  C0TOKENS: { repo: acme/tokens }
sandbox: { mode: bwrap }
`;

/** A harmless change: one sentence in the README, after the agent asked which Node.js its commands get. */
const readmeChange = () => [
  toolUseResponse([{ name: 'bash', input: { command: 'node --version' } }]),
  toolUseResponse([
    {
      name: 'str_replace_based_edit_tool',
      input: { command: 'str_replace', path: 'README.md', old_str: 'Seals legacy tokens.', new_str: 'Seals and opens legacy tokens.' },
    },
  ]),
  toolUseResponse([
    {
      name: 'finish_task',
      input: {
        summary: 'Said in the README that tokens are opened too.',
        verification: 'read the file',
        filesChanged: [{ path: 'README.md', change: 'one sentence' }],
        openQuestions: [],
      },
    },
  ]),
];

const NODE_LINE = new RegExp(`Node\\.js ${LEGACY_NODE_MAJOR}\\.\\d+\\.\\d+ \\(from the npm registry, [a-z ]+\\), for Node\\.js 14 \\(\\.nvmrc\\)\\.`);

/**
 * A repository pinned by .nvmrc and its CI matrix to Node.js 14, with a colour test and a CI job naming its own test
 * command: through the real pipeline its checks pass before and after a harmless change, on the Node.js it asks for.
 */
describe("checks as the repository's CI runs them, end to end", () => {
  let world: E2eWorld;

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'tokens', legacyNodeRepoFiles());
    await world.start({ WRENCH_RUNTIMES_DIR: TEST_RUNTIMES_DIR });
  }, 60_000);

  afterAll(async () => {
    await world?.stop();
  });

  it('wrench run --repo PATH reports the tests passing before and after on the Node.js of .nvmrc, with the CI job as their source', async () => {
    const repo = path.join(world.dir.path, 'tokens');
    makeRepo(repo, legacyNodeRepoFiles());
    const config = path.join(world.dir.path, 'run.config.yml');
    await writeFile(config, 'sandbox: { mode: bwrap }\n');
    world.anthropic.setScript(readmeChange());
    const result = await runWrench(['run', '--repo', repo, 'say in README.md that tokens can be opened as well as sealed'], {
      ANTHROPIC_API_KEY: ANTHROPIC_KEY,
      ANTHROPIC_BASE_URL: world.anthropic.url,
      WRENCH_DATA_DIR: path.join(world.dir.path, 'run-data'),
      WRENCH_RUNTIMES_DIR: TEST_RUNTIMES_DIR,
      WRENCH_CONFIG: config,
    });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('`npm run test:unit`: same as before: 4 passed, 0 failed.');
    expect(result.stdout).toContain('Checks from .github/workflows/ci.yml (job test).');
    expect(result.stdout).toMatch(NODE_LINE);
    expect(result.stdout).toContain('Not passed from .github/workflows/ci.yml (job test): `DEPLOY_KEY` (secrets or expressions).');
    // The agent's own commands run on the same Node.js as the checks.
    const nodeVersion = new RegExp(`"tool_result".{0,200}v${LEGACY_NODE_MAJOR}\\.\\d+\\.\\d+`);
    expect(world.anthropic.requests.some((request) => nodeVersion.test(JSON.stringify(request.body)))).toBe(true);
  }, 180_000);

  it('through Slack, the pull request and the reply say the same', async () => {
    world.anthropic.setScript(readmeChange());
    const envelope = appMentionEnvelope({
      channel: 'C0TOKENS',
      user: 'U0ALICE',
      text: '<@U0BOT> In README.md, say that tokens can be opened as well as sealed.',
    });
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    const ts = (envelope.event as { ts: string }).ts;
    const reply = await threadReply(world, ts, /\/pull\//, 150_000);
    const pull = world.github.pulls('acme', 'tokens').at(-1)!;
    expect(pull.draft).toBe(false);
    expect(pull.body).toContain('`npm run test:unit`: same as before: 4 passed, 0 failed.');
    expect(pull.body).toContain('Checks from .github/workflows/ci.yml (job test).');
    expect(pull.body).toMatch(NODE_LINE);
    expect(reply.text).toContain('same as before');
  }, 180_000);
});
