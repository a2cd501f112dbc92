import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import net from 'node:net';
import path from 'node:path';
import { startAnthropicFake, toolUseResponse, type AnthropicFake } from '../fakes/anthropic-fake.js';
import { startGitHubFake, type GitHubFake } from '../fakes/github-fake.js';
import { startSlackFake, type SlackFake } from '../fakes/slack-fake.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { startSecureRedis } from '../helpers/secure-redis.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { freePort } from '../helpers/free-port.js';
import { runWrench, startWrench } from '../helpers/wrench-process.js';
import { nodeVersionProblem } from '../../bin/node-version-check.mjs';

describe('the wrench command line', () => {
  let dir: TempDir;
  let anthropic: AnthropicFake;
  let slack: SlackFake;
  let github: GitHubFake;
  let redis: RedisServer;

  beforeAll(async () => {
    [dir, anthropic, slack, github, redis] = await Promise.all([
      makeTempDir('wrench-cli-'),
      startAnthropicFake(),
      startSlackFake({ tokens: ['xoxb-good-token-0000'] }),
      startGitHubFake(),
      startRedisServer(),
    ]);
  });

  afterAll(async () => {
    await Promise.all([anthropic?.stop(), slack?.stop(), github?.stop(), redis?.stop()]);
    await dir?.remove();
  });

  // The machine's system Node (20 on this image) is not a supported line: Wrench refuses it in one plain line.
  const oldNode = ['/usr/bin/node', '/usr/local/bin/node'].find(
    (bin) => existsSync(bin) && nodeVersionProblem(execFileSync(bin, ['-p', 'process.versions.node']).toString().trim()) !== undefined,
  );
  it.skipIf(!oldNode)('refuses an unsupported Node.js in one line with the versions to use', () => {
    const { status, stderr } = spawnSync(oldNode!, [path.resolve('dist/bin/wrench.js'), 'classify', 'fix the typo in README'], { encoding: 'utf8' });
    expect(status).toBe(1);
    expect(stderr).toMatch(/^wrench: Node\.js [\d.]+ is not supported; run Wrench on Node\.js 24 or 26 \(the LTS lines\)\.\n$/);
  });

  it('classify with an unreachable model says so in one plain line and that the rules decided', async () => {
    const closedPort = await freePort();
    const result = await runWrench(['classify', 'add tests for src/a.ts'], {
      ANTHROPIC_API_KEY: 'sk-ant-test-key-000000000000',
      ANTHROPIC_BASE_URL: `http://127.0.0.1:${closedPort}`,
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('wrench classify: the model claude-haiku-5-5 could not be reached (ECONNREFUSED); the rules decided.\n');
    expect(result.stdout).toMatch(/testing/);
  });

  it('start without credentials says exactly which variables to set', async () => {
    const result = await runWrench(['start'], { WRENCH_DATA_DIR: path.join(dir.path, 'none') });
    expect(result.code).toBe(1);
    for (const name of ['SLACK_BOT_TOKEN', 'SLACK_SIGNING_SECRET', 'ANTHROPIC_API_KEY', 'GITHUB_TOKEN']) expect(result.stderr).toContain(name);
    expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('a worker refuses to start when bubblewrap is missing, and says how to fix it', async () => {
    const bin = path.join(dir.path, 'bin-without-bwrap');
    execFileSync('mkdir', ['-p', bin]);
    for (const tool of ['git', 'redis-server', 'bash'])
      execFileSync('ln', ['-sf', execFileSync('which', [tool], { encoding: 'utf8' }).trim(), path.join(bin, tool)]);
    const result = await runWrench(['start'], {
      PATH: bin,
      SLACK_BOT_TOKEN: 'xoxb-good-token-0000',
      SLACK_SIGNING_SECRET: 'secret',
      ANTHROPIC_API_KEY: 'sk-ant-test-key-000000000000',
      GITHUB_TOKEN: 'ghp_testtesttesttesttesttesttesttest0000',
      WRENCH_DATA_DIR: path.join(dir.path, 'no-bwrap'),
      WRENCH_CONFIG: writeConfig(dir.path, 'sandbox: { mode: bwrap }\n'),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/bubblewrap \(bwrap\) is not installed/);
    expect(result.stderr).toMatch(/apt-get install bubblewrap/);
  });

  it('start with a bad value names it', async () => {
    const result = await runWrench(['start'], { PORT: 'not-a-port' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('PORT');
  });

  it('start without REDIS_URL runs its own redis-server under the data dir, with a password kept there, and stops it on exit', async () => {
    const dataDir = path.join(dir.path, 'embedded');
    const env = {
      SLACK_BOT_TOKEN: 'xoxb-good-token-0000',
      SLACK_SIGNING_SECRET: 'secret',
      SLACK_API_URL: slack.apiUrl,
      ANTHROPIC_API_KEY: 'sk-ant-test-key-000000000000',
      ANTHROPIC_BASE_URL: anthropic.url,
      GITHUB_TOKEN: 'ghp_testtesttesttesttesttesttesttest0000',
      GITHUB_API_URL: github.url,
      WRENCH_DATA_DIR: dataDir,
    };
    const wrench = await startWrench(env);
    const health = (await (await fetch(`${wrench.url}/healthz`)).json()) as { status: string; workers: number };
    expect(health.status).toBe('ok');
    const embeddedPort = (process: typeof wrench) => Number(/"port":(\d+)[^\n]*started embedded redis-server/.exec(process.output())?.[1]);
    const port = embeddedPort(wrench);
    expect(port).toBeGreaterThan(0);
    // The password is generated into a file only this user can read, and never logged.
    const passwordFile = path.join(dataDir, 'redis', 'password');
    expect(statSync(passwordFile).mode & 0o777).toBe(0o600);
    const password = readFileSync(passwordFile, 'utf8').trim();
    expect(password).toMatch(/^[0-9a-f]{64}$/);
    expect(wrench.output()).not.toContain(password);
    // From outside, a client without the password can neither write nor read; Wrench's own keys are there.
    const redisCli = (...args: string[]) => {
      const out = spawnSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], { encoding: 'utf8' });
      return `${out.stdout}${out.stderr}`;
    };
    expect(redisCli('SET', 'wrench:forged', 'job')).toMatch(/NOAUTH/);
    expect(redisCli('KEYS', '*')).toMatch(/NOAUTH/);
    const owner = new Redis({ port, host: '127.0.0.1', password, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    await owner.connect();
    expect((await owner.keys('*')).some((key) => key.startsWith('wrench:'))).toBe(true);
    expect(await owner.exists('wrench:forged')).toBe(0);
    owner.disconnect();
    expect(await wrench.stop()).toBe(0);
    expect(readdirSync(path.join(dataDir, 'redis')).some((f) => f.startsWith('appendonly'))).toBe(true);
    expect(await portOpen(port)).toBe(false);

    // A restart reuses the same password (its append-only data and workers keep working).
    const again = await startWrench(env);
    expect(((await (await fetch(`${again.url}/healthz`)).json()) as { status: string }).status).toBe('ok');
    expect(readFileSync(passwordFile, 'utf8').trim()).toBe(password);
    const reconnected = new Redis({ port: embeddedPort(again), host: '127.0.0.1', password, lazyConnect: true, maxRetriesPerRequest: 0 });
    await reconnected.connect();
    expect(await reconnected.ping()).toBe('PONG');
    reconnected.disconnect();
    expect(await again.stop()).toBe(0);
  });

  it('start with a rediss:// REDIS_URL holding a password connects every client over TLS, trusting WRENCH_REDIS_CA_FILE', async () => {
    const secure = await startSecureRedis();
    try {
      const wrench = await startWrench({
        SLACK_BOT_TOKEN: 'xoxb-good-token-0000',
        SLACK_SIGNING_SECRET: 'secret',
        SLACK_API_URL: slack.apiUrl,
        ANTHROPIC_API_KEY: 'sk-ant-test-key-000000000000',
        ANTHROPIC_BASE_URL: anthropic.url,
        GITHUB_TOKEN: 'ghp_testtesttesttesttesttesttesttest0000',
        GITHUB_API_URL: github.url,
        WRENCH_DATA_DIR: path.join(dir.path, 'tls-data'),
        REDIS_URL: secure.tlsUrl,
        WRENCH_REDIS_CA_FILE: secure.caFile,
      });
      const health = (await (await fetch(`${wrench.url}/healthz`)).json()) as { status: string; workers: number };
      expect(health.status).toBe('ok');
      // Wrench's queues live in that Redis: its own keys are there, reached only with the password.
      const owner = new Redis(secure.url, { lazyConnect: true, maxRetriesPerRequest: 0 });
      await owner.connect();
      expect((await owner.keys('wrench:*')).length).toBeGreaterThan(0);
      const clients = await owner.client('LIST');
      owner.disconnect();
      expect(String(clients)).toMatch(/name=wrench-task-worker/);
      expect(wrench.output()).not.toContain(secure.password);
      expect(await wrench.stop()).toBe(0);
    } finally {
      await secure.stop();
    }
  });

  it('run --repo PATH runs one task without Slack and pushes a branch back to the checkout', async () => {
    const repo = demoCheckout(path.join(dir.path, 'local-repo'));
    anthropic.setScript([
      toolUseResponse([
        { name: 'str_replace_based_edit_tool', input: { command: 'str_replace', path: 'README.md', old_str: '# demo', new_str: '# demo\n\nA demo project.' } },
      ]),
      toolUseResponse([
        {
          name: 'finish_task',
          input: {
            summary: 'Described the project in README.md.',
            verification: 'viewed the file',
            filesChanged: [{ path: 'README.md', change: 'one sentence' }],
            openQuestions: [],
          },
        },
      ]),
    ]);
    const result = await runWrench(['run', '--repo', repo, 'add a one-sentence description to README.md under the title'], {
      ANTHROPIC_API_KEY: 'sk-ant-test-key-000000000000',
      ANTHROPIC_BASE_URL: anthropic.url,
      WRENCH_DATA_DIR: path.join(dir.path, 'run-data'),
      WRENCH_CONFIG: writeConfig(dir.path, 'sandbox: { mode: none }\n'),
    });
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/preparing/);
    expect(result.stdout).toContain('Described the project in README.md.');
    const branch = /Committed on branch `([^`]+)`/.exec(result.stdout)?.[1];
    if (!branch) throw new Error(result.stdout);
    expect(branch).toMatch(/^wrench\/add-a-one-sentence/);
    // The headline counts the committed diff's files and lines, as the thread's does.
    expect(result.stdout).toMatch(/Committed on branch `[^`]+` of .+ \(1 file, \+\d+ −\d+\)\./);
    expect(execFileSync('git', ['-C', repo, 'show', `${branch}:README.md`], { encoding: 'utf8' })).toContain('A demo project.');
  });

  it('run speaks of the command line when it stops early, and --continue goes on from the branch it left', async () => {
    const repo = demoCheckout(path.join(dir.path, 'local-repo-stop'));
    const env = {
      ANTHROPIC_API_KEY: 'sk-ant-test-key-000000000000',
      ANTHROPIC_BASE_URL: anthropic.url,
      WRENCH_DATA_DIR: path.join(dir.path, 'run-stop-data'),
      WRENCH_CONFIG: writeConfig(dir.path, 'sandbox: { mode: none }\nlimits: { steps: 1 }\n'),
    };
    // One step allowed: the edit happens, then the step limit stops the run before it finishes.
    anthropic.setScript([
      toolUseResponse([
        { name: 'str_replace_based_edit_tool', input: { command: 'str_replace', path: 'README.md', old_str: '# demo', new_str: '# demo\n\nHalf done.' } },
      ]),
      toolUseResponse([{ name: 'str_replace_based_edit_tool', input: { command: 'view', path: 'README.md' } }]),
    ]);
    const result = await runWrench(['run', '--repo', repo, 'add a one-sentence description to README.md under the title'], env);
    expect(result.code, result.stdout + result.stderr).toBe(3);
    expect(result.stdout).toMatch(/\. To continue, run `wrench run --repo .*local-repo-stop --continue "…"`/);
    // Said once: not "To go on, to continue, run …".
    expect(result.stdout).not.toMatch(/to go on, to continue/i);
    expect(result.stdout).not.toMatch(/this thread|mention me/i);
    expect(result.stdout).not.toContain('**');
    expect(result.stdout).toMatch(/\b1 step\b/);
    expect(result.stdout).not.toContain('1 steps');
    const branch = /Committed on branch `([^`]+)`/.exec(result.stdout)?.[1];
    if (!branch) throw new Error(result.stdout);
    expect(result.stdout).toContain(`The work done until then is committed on branch \`${branch}\``);

    // Going on as told: the second run starts from the first run's branch and commits onto it.
    anthropic.setScript([
      toolUseResponse([
        {
          name: 'str_replace_based_edit_tool',
          input: { command: 'str_replace', path: 'README.md', old_str: 'Half done.', new_str: 'Half done.\n\nAll done.' },
        },
      ]),
    ]);
    const second = await runWrench(['run', '--repo', repo, '--continue', 'finish the description'], env);
    expect(second.stdout).toContain(`Committed on branch \`${branch}\``);
    const readme = execFileSync('git', ['-C', repo, 'show', `${branch}:README.md`], { encoding: 'utf8' });
    expect(readme).toContain('Half done.');
    expect(readme).toContain('All done.');
  });

  it('run --continue before any run left a branch says so; --base starts a local run from that branch; --help documents both', async () => {
    const repo = demoCheckout(path.join(dir.path, 'local-repo-base'));
    const env = {
      ANTHROPIC_API_KEY: 'sk-ant-test-key-000000000000',
      ANTHROPIC_BASE_URL: anthropic.url,
      WRENCH_DATA_DIR: path.join(dir.path, 'run-base-data'),
      WRENCH_CONFIG: writeConfig(dir.path, 'sandbox: { mode: none }\n'),
    };
    const none = await runWrench(['run', '--repo', repo, '--continue', 'go on'], env);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/left a branch to continue; run without --continue/);

    execFileSync('git', ['-C', repo, 'checkout', '-q', '-b', 'feature']);
    writeFileSync(path.join(repo, 'FEATURE.md'), 'feature\n');
    execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'add', '.']);
    execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'feature']);
    execFileSync('git', ['-C', repo, 'checkout', '-q', 'main']);
    anthropic.setScript([
      toolUseResponse([{ name: 'str_replace_based_edit_tool', input: { command: 'create', path: 'NOTES.md', file_text: 'notes\n' } }]),
      toolUseResponse([{ name: 'finish_task', input: { summary: 'Added notes.', verification: 'none', filesChanged: [], openQuestions: [] } }]),
    ]);
    const based = await runWrench(['run', '--repo', repo, '--base', 'feature', 'add a NOTES.md file'], env);
    const branch = /Committed on branch `([^`]+)`/.exec(based.stdout)?.[1];
    if (!branch) throw new Error(based.stdout + based.stderr);
    expect(execFileSync('git', ['-C', repo, 'show', `${branch}:FEATURE.md`], { encoding: 'utf8' })).toBe('feature\n');

    const help = await runWrench(['help'], {});
    expect(help.stdout).toMatch(/--base BRANCH: start from BRANCH/);
    expect(help.stdout).toMatch(/--continue: go on from the branch the last run on this repository left/);
  });

  it('run explains bad arguments', async () => {
    const noRepo = await runWrench(['run', 'do something'], {});
    expect(noRepo.code).toBe(1);
    expect(noRepo.stderr).toContain('--repo');
    const badRepo = await runWrench(['run', '--repo', 'not a repo', 'x'], { ANTHROPIC_API_KEY: 'k' });
    expect(badRepo.stderr).toMatch(/local checkout or owner\/name/);
  });

  it('doctor checks each part and says what to fix', async () => {
    const env = {
      SLACK_BOT_TOKEN: 'xoxb-wrong-token',
      SLACK_SIGNING_SECRET: 'secret',
      SLACK_API_URL: slack.apiUrl,
      ANTHROPIC_API_KEY: 'sk-ant-test-key-000000000000',
      ANTHROPIC_BASE_URL: anthropic.url,
      GITHUB_TOKEN: 'ghp_testtesttesttesttesttesttesttest0000',
      GITHUB_API_URL: github.url,
      REDIS_URL: redis.url,
      WRENCH_CONFIG: writeConfig(dir.path, 'sandbox: { mode: bwrap }\n'),
    };
    const bad = await runWrench(['doctor'], env);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/FAIL\s+Slack: auth.test failed: invalid_auth/);
    expect(bad.stdout).toMatch(/fix: Check SLACK_BOT_TOKEN/);
    // This test's Redis has no password: doctor warns (with the fix) but does not fail for it.
    expect(bad.stdout).toMatch(/WARN\s+Redis: redis:\/\/127\.0\.0\.1:\d+ answers, and also accepts commands from a client that gives no password/);
    expect(bad.stdout).toMatch(/fix: Set requirepass/);
    expect(bad.stdout).toMatch(/ok\s+sandbox: bubblewrap works/);
    expect(bad.stdout).toMatch(/ok\s+Warm-start caches: trees 0 B in 0 \(cap 20 GB\); dependencies 0 B in 0 \(cap 10 GB\); baselines 0 B in 0/);
    const good = await runWrench(['doctor'], { ...env, SLACK_BOT_TOKEN: 'xoxb-good-token-0000' });
    expect(good.stdout).toMatch(/ok\s+Slack/);
    expect(good.stdout).toMatch(/ok\s+Anthropic/);
    expect(good.stdout).toMatch(/ok\s+GitHub/);
    expect(good.code).toBe(0);
  });

  it('doctor names the actual cause when Redis and GitHub cannot be reached, with no stack trace or library log', async () => {
    const closedPort = await freePort();
    const result = await runWrench(['doctor'], {
      SLACK_BOT_TOKEN: 'xoxb-good-token-0000',
      SLACK_SIGNING_SECRET: 'secret',
      SLACK_API_URL: slack.apiUrl,
      ANTHROPIC_API_KEY: 'sk-ant-test-key-000000000000',
      ANTHROPIC_BASE_URL: anthropic.url,
      GITHUB_TOKEN: 'ghp_testtesttesttesttesttesttesttest0000',
      GITHUB_API_URL: `http://127.0.0.1:${closedPort}`,
      REDIS_URL: `redis://127.0.0.1:${closedPort}`,
      WRENCH_CONFIG: writeConfig(dir.path, 'channels: { C0DOCTOR1: { repo: acme/web } }\nsandbox: { mode: none }\n'),
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/FAIL\s+Redis: cannot connect to redis:\/\/127\.0\.0\.1:\d+ \(connection refused\)/);
    expect(result.stdout).toMatch(/fix: Start Redis/);
    expect(result.stdout).toMatch(/FAIL\s+GitHub: cannot connect to http:\/\/127\.0\.0\.1:\d+ \(connection refused\)/);
    expect(result.stdout).toMatch(/fix: Check GITHUB_API_URL/);
    expect(result.stdout).not.toMatch(/access to these repositories/);
    expect(result.stdout).toMatch(/ok\s+Slack/);
    const output = result.stdout + result.stderr;
    expect(output).not.toMatch(/\n\s+at /); // no stack trace
    expect(output).not.toMatch(/Unhandled error event|\[ioredis\]|GET \/rate_limit|request failed/i);
  });

  it("doctor with Slack unreachable says so without the Slack client's own log lines", async () => {
    const closedPort = await freePort();
    const result = await runWrench(['doctor'], {
      SLACK_BOT_TOKEN: 'xoxb-good-token-0000',
      SLACK_SIGNING_SECRET: 'secret',
      SLACK_API_URL: `http://127.0.0.1:${closedPort}/api/`,
      REDIS_URL: `redis://127.0.0.1:${closedPort}`,
      WRENCH_CONFIG: writeConfig(dir.path, 'channels: { C0DOCTOR1: { repo: acme/web } }\nsandbox: { mode: none }\n'),
    });
    expect(result.stdout).toMatch(/FAIL\s+Slack: auth\.test failed/);
    const output = result.stdout + result.stderr;
    expect(output).not.toMatch(/\[WARN\]|web-api:WebClient|\n\s+at /);
  });

  it("--help and -h print each command's usage and exit 0, also after other options", async () => {
    for (const [command, usage] of [
      ['run', /^Usage: wrench run --repo PATH\|owner\/name \[--base BRANCH \| --continue\] TEXT/],
      ['start', /^Usage: wrench start \[--role all\|web\|worker\]/],
      ['doctor', /^Usage: wrench doctor/],
      ['classify', /^Usage: wrench classify/],
    ] as const) {
      for (const flag of ['--help', '-h']) {
        const result = await runWrench([command, flag], {});
        expect(result.code, `${command} ${flag}: ${result.stderr}`).toBe(0);
        expect(result.stdout).toMatch(usage);
        expect(result.stderr).toBe('');
      }
    }
    const late = await runWrench(['run', '--repo', '.', '--help'], {});
    expect(late.code).toBe(0);
    expect(late.stdout).toMatch(/--continue {2,}go on from the branch/);
  });

  it('unknown commands get the usage', async () => {
    const result = await runWrench(['frobnicate'], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Usage: wrench');
  });
});

/** A local checkout with one commit of a one-line README, for `wrench run --repo PATH`. */
function demoCheckout(repo: string): string {
  execFileSync('git', ['init', '-q', '-b', 'main', repo]);
  writeFileSync(path.join(repo, 'README.md'), '# demo\n');
  execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'add', '.']);
  execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init']);
  return repo;
}

function writeConfig(dir: string, yaml: string): string {
  const file = path.join(dir, `config-${Math.random().toString(36).slice(2)}.yml`);
  writeFileSync(file, yaml);
  return file;
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}
