import { mkdir, utimes, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configurationLine } from '../../../app/cli/doctor-command.js';
import { checkAnthropic, checkDiskSpace, checkGitHub, checkHeldWork, checkRedis, checkSlack } from '../../../app/cli/doctor-checks.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

/** One local HTTP server answering every request with the status and JSON body the test sets. */
let answer: { status: number; body: unknown } = { status: 200, body: {} };
let server: http.Server;
let url: string;
let cwd: TempDir;

beforeAll(async () => {
  cwd = await makeTempDir('wrench-doctor-');
  server = http.createServer((_request, response) => {
    response.writeHead(answer.status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await cwd.remove();
});

const config = (env: Record<string, string>) => loadConfig(env, cwd.path);

describe('wrench doctor on a 403', () => {
  it('GitHub: a permission problem of GITHUB_TOKEN, with the permissions it needs, not "check the network"', async () => {
    answer = { status: 403, body: { message: 'Resource not accessible by personal access token' } };
    const result = await checkGitHub(config({ GITHUB_TOKEN: 'ghp_x', GITHUB_API_URL: url }));
    expect(result.ok).toBe(false);
    expect(result.detail).toBe(
      `GITHUB_TOKEN was refused at ${url} (HTTP 403: Resource not accessible by personal access token): a permission problem, not the network`,
    );
    expect(result.fix).toMatch(/^Give GITHUB_TOKEN the permissions Wrench uses: a fine-grained token needs Contents, Pull requests and Issues: read and write/);
    expect(result.fix).not.toMatch(/network/);
  });

  it('GitHub: a used-up rate limit (also a 403) is told apart from a missing permission', async () => {
    answer = { status: 403, body: { message: 'API rate limit exceeded for user ID 1.' } };
    const result = await checkGitHub(config({ GITHUB_TOKEN: 'ghp_x', GITHUB_API_URL: url }));
    expect(result.detail).toMatch(/^GitHub's rate limit for GITHUB_TOKEN is used up/);
    expect(result.fix).toMatch(/Wait for the limit to reset/);
  });

  it('Slack: a permission problem of SLACK_BOT_TOKEN, not "check the network"', async () => {
    answer = { status: 403, body: { ok: false } };
    const result = await checkSlack(config({ SLACK_BOT_TOKEN: 'xoxb-x', SLACK_SIGNING_SECRET: 's', SLACK_API_URL: `${url}/api/` }));
    expect(result.ok).toBe(false);
    expect(result.detail).toBe(
      `auth.test was refused with HTTP 403 at ${url}/api/: SLACK_BOT_TOKEN is not permitted there (a permission problem, not the network)`,
    );
    expect(result.fix).toMatch(/SLACK_BOT_TOKEN may be used from this machine/);
  });

  it('Anthropic: the key is not permitted to use the model', async () => {
    answer = { status: 403, body: { type: 'error', error: { type: 'permission_error', message: 'no access to this model' } } };
    const result = await checkAnthropic(config({ ANTHROPIC_API_KEY: 'sk-x', ANTHROPIC_BASE_URL: url, WRENCH_MODEL: 'claude-x' }));
    expect(result.ok).toBe(false);
    expect(result.detail).toMatch(/^HTTP 403/);
    expect(result.fix).toMatch(/^ANTHROPIC_API_KEY is not permitted to use claude-x \(a permission problem, not the network\)/);
  });
});

describe('wrench doctor on REDIS_URL pointing at an HTTP port', () => {
  it('says it is not a Redis server instead of the parser\'s "Unknown RESP type 72"', async () => {
    const result = await checkRedis(config({ REDIS_URL: url.replace('http:', 'redis:') }));
    expect(result.ok).toBe(false);
    expect(result.detail).toBe(
      `${url.replace('http:', 'redis:')} is not a Redis server: it answered in another protocol (first byte "H", as an HTTP server does)`,
    );
    expect(result.fix).toMatch(/Point REDIS_URL at Redis itself/);
  });
});

describe('the configuration line', () => {
  it('warns, with what to do, when no channel is linked; ok with the count otherwise', () => {
    expect(configurationLine(config({}))).toMatch(
      /^warn {2}configuration: no wrench.config.yml \(defaults\); no channel is linked to a repository.*\n {6}fix: Link each channel/,
    );
    const linked = config({});
    linked.file.channels = { C0123ABCD: { repo: 'acme/web' } };
    expect(configurationLine(linked)).toBe('ok    configuration: no wrench.config.yml (defaults); 1 channel(s) linked');
  });
});

describe("wrench doctor on the data dir's free space", () => {
  it('says how much is free and the minimum; below it, that new runs wait, and what to do', async () => {
    const dataDir = join(cwd.path, 'space-data');
    const ample = await checkDiskSpace(config({ WRENCH_DATA_DIR: dataDir, WRENCH_MIN_FREE_MB: '1' }));
    expect(ample).toMatchObject({ name: 'Data dir free space', ok: true });
    expect(ample.detail).toMatch(/^\d+ MB free of \d+ MB on \S+space-data; new runs wait below 1 MB \(WRENCH_MIN_FREE_MB\)$/);
    const low = await checkDiskSpace(config({ WRENCH_DATA_DIR: dataDir, WRENCH_MIN_FREE_MB: '100000000' }));
    expect(low.ok).toBe(false);
    expect(low.detail).toMatch(/: new runs are waiting for space$/);
    expect(low.fix).toMatch(/^Free space on /);
    expect((await checkDiskSpace(config({ WRENCH_DATA_DIR: dataDir, WRENCH_MIN_FREE_MB: '0' }))).detail).toMatch(/runs never wait for space$/);
  });
});

describe('wrench doctor on held work', () => {
  it('says how many bundles of refused pushes are held, their total size and ids, and when they are removed', async () => {
    const dataDir = join(cwd.path, 'held-data');
    const settings = config({ WRENCH_DATA_DIR: dataDir, WRENCH_HELD_RETENTION_DAYS: '7' });
    expect((await checkHeldWork(settings)).detail).toBe(`no bundles in ${join(dataDir, 'held')}; they are removed after 7 days (WRENCH_HELD_RETENTION_DAYS)`);
    await mkdir(join(dataDir, 'held'), { recursive: true });
    await writeFile(join(dataDir, 'held', 'wrench-a-0123456789ab.bundle'), Buffer.alloc(1024));
    await writeFile(join(dataDir, 'held', 'wrench-b-ba9876543210.bundle'), Buffer.alloc(2048));
    await writeFile(join(dataDir, 'held', 'notes.txt'), 'not a bundle');
    const at = new Date('2026-11-01T12:00:00Z');
    await utimes(join(dataDir, 'held', 'wrench-a-0123456789ab.bundle'), at, at);
    const result = await checkHeldWork(settings);
    expect(result.ok).toBe(true);
    expect(result.detail).toMatch(
      /^2 bundle\(s\), 3\.0 KB, in \S+\/held: wrench-a-0123456789ab \(2026-11-01\), wrench-b-ba9876543210 \(\d{4}-\d\d-\d\d\); removed after 7 days/,
    );
  });
});
