import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/config-error.js';
import { channelRepositories, configFileSchema } from '../../../src/config/config-file.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { requireSettings } from '../../../src/config/require-settings.js';

const dir = () => mkdtempSync(path.join(tmpdir(), 'wrench-config-'));

describe('loadConfig', () => {
  it('applies the defaults of DESIGN.md when nothing is set', () => {
    const config = loadConfig({}, dir());
    expect(config.env.PORT).toBe(3000);
    expect(config.env.SLACK_API_URL).toBe('https://slack.com/api/');
    expect(config.env.GITHUB_API_URL).toBe('https://api.github.com');
    expect(config.env.GIT_BASE_URL).toBe('https://github.com');
    expect(config.env.PAGERDUTY_API_URL).toBe('https://api.pagerduty.com');
    expect(config.env.PAGERDUTY_WEBHOOK_SECRETS).toEqual([]);
    expect(config.file.sandbox).toMatchObject({ mode: 'bwrap', network: 'setup-only' });
    expect(config.file.limits.concurrency).toBe(2);
    expect(config.configPath).toBeNull();
  });

  it('reads wrench.config.yml with channels, repos, access and pagerduty', () => {
    const cwd = dir();
    writeFileSync(
      path.join(cwd, 'wrench.config.yml'),
      'channels:\n  C0123ABCD: { repo: acme/web, baseBranch: main }\nrepos: [acme/*]\naccess:\n  users: [U1]\npagerduty:\n  services:\n    PABC123: { repo: acme/checkout, channel: C0INC }\nlimits:\n  concurrency: 4\n',
    );
    const config = loadConfig({ PAGERDUTY_WEBHOOK_SECRETS: 'a, b' }, cwd);
    expect(config.file.channels.C0123ABCD).toEqual({ repo: 'acme/web', baseBranch: 'main' });
    expect(config.file.repos).toEqual(['acme/*']);
    expect(config.file.access.users).toEqual(['U1']);
    expect(config.file.access.approvers).toEqual([]);
    expect(config.file.pagerduty.services.PABC123!.channel).toBe('C0INC');
    expect(config.file.limits.concurrency).toBe(4);
    expect(config.env.PAGERDUTY_WEBHOOK_SECRETS).toEqual(['a', 'b']);
  });

  it("keeps thread sessions WRENCH_THREAD_RETENTION_DAYS (90), never shorter than a paused run's wait for its answer", () => {
    expect(loadConfig({}, dir()).env.WRENCH_THREAD_RETENTION_DAYS).toBe(90);
    expect(loadConfig({ WRENCH_THREAD_RETENTION_DAYS: '7' }, dir()).env.WRENCH_THREAD_RETENTION_DAYS).toBe(7);
    expect(() => loadConfig({ WRENCH_THREAD_RETENTION_DAYS: '0' }, dir())).toThrow(/WRENCH_THREAD_RETENTION_DAYS must be more than 0/);
    const cwd = dir();
    writeFileSync(path.join(cwd, 'wrench.config.yml'), 'limits:\n  questionTimeoutHours: 72\n');
    expect(() => loadConfig({ WRENCH_THREAD_RETENTION_DAYS: '3' }, cwd)).toThrow(/longer than limits.questionTimeoutHours \(72 hours\)/);
    expect(loadConfig({ WRENCH_THREAD_RETENTION_DAYS: '4' }, cwd).env.WRENCH_THREAD_RETENTION_DAYS).toBe(4);
  });

  it("WRENCH_CONCURRENCY takes the place of the config file's limits.concurrency; a bad value is named", () => {
    const cwd = dir();
    writeFileSync(path.join(cwd, 'wrench.config.yml'), 'limits:\n  concurrency: 3\n  perUser: 5\n');
    expect(loadConfig({}, cwd).file.limits).toMatchObject({ concurrency: 3, perUser: 5 });
    expect(loadConfig({ WRENCH_CONCURRENCY: '6' }, cwd).file.limits).toMatchObject({ concurrency: 6, perUser: 5 });
    expect(loadConfig({ WRENCH_CONCURRENCY: '' }, cwd).file.limits.concurrency).toBe(3);
    expect(() => loadConfig({ WRENCH_CONCURRENCY: '0' }, cwd)).toThrow(/WRENCH_CONCURRENCY must be between 1 and 64/);
    expect(() => loadConfig({ WRENCH_CONCURRENCY: 'two' }, cwd)).toThrow(/WRENCH_CONCURRENCY must be a whole number of jobs/);
  });

  it('names the variable and what is wrong with it', () => {
    expect(() => loadConfig({ PORT: 'eighty' }, dir())).toThrow(/PORT/);
    expect(() => loadConfig({ GITHUB_API_URL: 'not a url' }, dir())).toThrow(/GITHUB_API_URL must be a URL/);
    expect(() => loadConfig({ REDIS_URL: 'localhost:6379' }, dir())).toThrow(/REDIS_URL must start with redis:\/\//);
  });

  it('names the config key that is wrong', () => {
    const cwd = dir();
    writeFileSync(path.join(cwd, 'wrench.config.yml'), 'channels:\n  C0123ABCD: { repo: not-a-repo }\nsandbox: { mode: docker }\n');
    try {
      loadConfig({}, cwd);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain('channels.C0123ABCD.repo: must be owner/name');
      expect((error as Error).message).toContain('sandbox.mode');
    }
  });

  it('reads a channel with several repositories, and says what is wrong with its list', () => {
    const cwd = dir();
    writeFileSync(path.join(cwd, 'wrench.config.yml'), 'channels:\n  C0123ABCD: { repos: [acme/web, acme/api], baseBranch: main }\n');
    const config = loadConfig({}, cwd);
    expect(config.file.channels.C0123ABCD).toEqual({ repos: ['acme/web', 'acme/api'], baseBranch: 'main' });
    expect(channelRepositories(config.file.channels.C0123ABCD)).toEqual(['acme/web', 'acme/api']);
    expect(channelRepositories(configFileSchema.parse({ channels: { C1: { repo: 'acme/web' } } }).channels.C1)).toEqual(['acme/web']);
    const refused = (yaml: string) => {
      writeFileSync(path.join(cwd, 'wrench.config.yml'), yaml);
      try {
        loadConfig({}, cwd);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      return expect.unreachable();
    };
    expect(refused('channels:\n  C1: { repos: [] }\n')).toContain('channels.C1.repos: is empty: list at least one repository');
    expect(refused('channels:\n  C1: { repos: [acme/web, acme/api, ACME/Web] }\n')).toContain('channels.C1.repos.2: lists ACME/Web twice');
    expect(refused('channels:\n  C1: { repos: [acme/web, api] }\n')).toContain('channels.C1.repos.1: must be owner/name');
    expect(refused('channels:\n  C1: { repo: acme/web, repos: [acme/api] }\n')).toContain(
      'channels.C1.repos: give either repo (one repository) or repos (several), not both',
    );
    expect(refused('channels:\n  C1: { baseBranch: main }\n')).toContain('channels.C1.repo: is missing: give repo (one repository) or repos (several)');
  });

  it('reads wrench.config.example.yml as it is', () => {
    const example = path.join(import.meta.dirname, '../../../wrench.config.example.yml');
    const config = loadConfig({ WRENCH_CONFIG: example }, dir());
    expect(channelRepositories(config.file.channels.C0456EFGH)).toEqual(['acme/web', 'acme/api']);
  });

  it('rejects unknown keys so typos do not pass silently', () => {
    const cwd = dir();
    writeFileSync(path.join(cwd, 'wrench.config.yml'), 'chanels: {}\n');
    expect(() => loadConfig({}, cwd)).toThrow(/chanels|Unrecognized key/);
  });

  it('fails when WRENCH_CONFIG points at a missing file, and on invalid YAML', () => {
    const cwd = dir();
    expect(() => loadConfig({ WRENCH_CONFIG: 'nope.yml' }, cwd)).toThrow(/WRENCH_CONFIG points at .*nope.yml/);
    writeFileSync(path.join(cwd, 'bad.yml'), 'channels: [\n');
    expect(() => loadConfig({ WRENCH_CONFIG: 'bad.yml' }, cwd)).toThrow(/not valid YAML/);
  });

  it('says the config path is a directory (what Docker leaves for a missing bind-mounted file), not EISDIR', () => {
    const cwd = dir();
    mkdirSync(path.join(cwd, 'wrench.config.yml'));
    expect(() => loadConfig({ WRENCH_CONFIG: 'wrench.config.yml' }, cwd)).toThrow(
      /wrench\.config\.yml is a directory, not a YAML file\. Docker makes an empty directory/,
    );
    expect(() => loadConfig({}, cwd)).toThrow(ConfigError);
  });
});

describe('requireSettings', () => {
  it('lists every missing credential of a role in one message', () => {
    const config = loadConfig({}, dir());
    try {
      requireSettings(config, 'all');
      expect.unreachable();
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toContain('SLACK_BOT_TOKEN');
      expect(message).toContain('SLACK_SIGNING_SECRET');
      expect(message).toContain('ANTHROPIC_API_KEY');
      expect(message).toContain('GITHUB_TOKEN');
    }
  });

  it('accepts Socket Mode without a signing secret', () => {
    const config = loadConfig({ SLACK_BOT_TOKEN: 'xoxb-1', SLACK_APP_TOKEN: 'xapp-1', ANTHROPIC_API_KEY: 'k', GITHUB_TOKEN: 't' }, dir());
    expect(() => requireSettings(config, 'all')).not.toThrow();
  });

  describe('GitHub App credentials', () => {
    const base = { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 's', ANTHROPIC_API_KEY: 'k' };
    const rsa = (modulusLength = 1024) =>
      generateKeyPairSync('rsa', { modulusLength, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs1', format: 'pem' } })
        .privateKey;
    const pem = rsa();

    it('start without GITHUB_TOKEN, the key inline with \\n escapes', () => {
      const config = loadConfig({ ...base, GITHUB_APP_ID: '1', GITHUB_APP_PRIVATE_KEY: pem.replace(/\n/g, '\\n') }, dir());
      expect(config.env.GITHUB_APP_PRIVATE_KEY).toBe(pem);
      expect(() => requireSettings(config, 'all')).not.toThrow();
    });

    it('read the key from GITHUB_APP_PRIVATE_KEY_PATH once, and keep the path itself out of the secrets', async () => {
      const cwd = dir();
      writeFileSync(path.join(cwd, 'app.pem'), pem);
      const config = loadConfig({ ...base, GITHUB_APP_ID: '1', GITHUB_APP_PRIVATE_KEY_PATH: 'app.pem' }, cwd);
      expect(config.env.GITHUB_APP_PRIVATE_KEY).toBe(pem);
      const { secretValuesOf } = await import('../../../src/security/redact.js');
      expect(secretValuesOf(config.env)).toContain(pem);
      expect(secretValuesOf(config.env)).not.toContain('app.pem');
    });

    it('name a missing or unreadable key file, a key that is not PEM, and a missing App id', () => {
      expect(() => loadConfig({ ...base, GITHUB_APP_ID: '1', GITHUB_APP_PRIVATE_KEY_PATH: 'nope.pem' }, dir())).toThrow(
        /GITHUB_APP_PRIVATE_KEY_PATH .*nope\.pem.*cannot be read/,
      );
      expect(() => loadConfig({ ...base, GITHUB_APP_ID: '1', GITHUB_APP_PRIVATE_KEY: 'pem' }, dir())).toThrow(
        /GITHUB_APP_PRIVATE_KEY must be the PEM private key/,
      );
      expect(() => requireSettings(loadConfig({ ...base, GITHUB_APP_PRIVATE_KEY: pem }, dir()), 'all')).toThrow(/GITHUB_APP_ID/);
    });

    it('refuse at start-up a key OpenSSL cannot read, or one that is not RSA, naming where it came from', () => {
      const lines = pem.trim().split('\n');
      // A copy that lost a line in the middle: still PEM-shaped, no longer a key.
      const damaged = [...lines.slice(0, 3), ...lines.slice(5)].join('\n');
      expect(() => loadConfig({ ...base, GITHUB_APP_ID: '1', GITHUB_APP_PRIVATE_KEY: damaged }, dir())).toThrow(
        /^GITHUB_APP_PRIVATE_KEY holds a private key OpenSSL cannot read \(.+\); generate a new private key/,
      );
      const cwd = dir();
      writeFileSync(path.join(cwd, 'app.pem'), damaged);
      expect(() => loadConfig({ ...base, GITHUB_APP_ID: '1', GITHUB_APP_PRIVATE_KEY_PATH: 'app.pem' }, cwd)).toThrow(
        new RegExp(
          `^GITHUB_APP_PRIVATE_KEY_PATH \\(${path.join(cwd, 'app.pem').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\) holds a private key OpenSSL cannot read`,
        ),
      );
      const ec = generateKeyPairSync('ec', {
        namedCurve: 'P-256',
        privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
        publicKeyEncoding: { type: 'spki', format: 'pem' },
      }).privateKey;
      expect(() => loadConfig({ ...base, GITHUB_APP_ID: '1', GITHUB_APP_PRIVATE_KEY: ec }, dir())).toThrow(
        /GITHUB_APP_PRIVATE_KEY holds a key of type ec; a GitHub App's private key is RSA/,
      );
      expect(() => requireSettings(loadConfig({ ...base, GITHUB_APP_ID: '1' }, dir()), 'all')).toThrow(/GITHUB_APP_PRIVATE_KEY or GITHUB_APP_PRIVATE_KEY_PATH/);
    });
  });

  it('reads github.fixFailingChecks (default on), github.maxFixRounds and the issue label (default wrench) and assignee', () => {
    const cwd = dir();
    expect(loadConfig({}, cwd).file.github).toEqual({ fixFailingChecks: true, maxFixRounds: 2, issueLabel: 'wrench' });
    writeFileSync(path.join(cwd, 'wrench.config.yml'), "github: { fixFailingChecks: false, maxFixRounds: 1, issueLabel: '', issueAssignee: wrench-bot }\n");
    expect(loadConfig({}, cwd).file.github).toEqual({ fixFailingChecks: false, maxFixRounds: 1, issueLabel: '', issueAssignee: 'wrench-bot' });
    writeFileSync(path.join(cwd, 'wrench.config.yml'), 'github: { maxFixRounds: -1 }\n');
    expect(() => loadConfig({}, cwd)).toThrow(/github\.maxFixRounds/);
  });

  it('reads git.name and git.email (the bot identity of pushed commits), Wrench by default', () => {
    const cwd = dir();
    expect(loadConfig({}, cwd).file.git).toEqual({ name: 'Wrench', email: 'wrench@users.noreply.github.com' });
    writeFileSync(path.join(cwd, 'wrench.config.yml'), 'git: { name: Acme Bot, email: bot@acme.example }\n');
    expect(loadConfig({}, cwd).file.git).toEqual({ name: 'Acme Bot', email: 'bot@acme.example' });
    writeFileSync(path.join(cwd, 'wrench.config.yml'), 'git: { email: not-an-email }\n');
    expect(() => loadConfig({}, cwd)).toThrow(/git\.email: must be an email address/);
    writeFileSync(path.join(cwd, 'wrench.config.yml'), 'git: { name: "Bot <x>" }\n');
    expect(() => loadConfig({}, cwd)).toThrow(/git\.name: must not hold/);
  });

  it('reads modelBudget (no configured limits, 600 s at most waited by default) and names a bad value', () => {
    const cwd = dir();
    expect(loadConfig({}, cwd).file.modelBudget).toEqual({ requestsPerMinute: 0, inputTokensPerMinute: 0, outputTokensPerMinute: 0, maxWaitSeconds: 600 });
    writeFileSync(path.join(cwd, 'wrench.config.yml'), 'modelBudget: { requestsPerMinute: 50, outputTokensPerMinute: 8000 }\n');
    expect(loadConfig({}, cwd).file.modelBudget).toMatchObject({ requestsPerMinute: 50, inputTokensPerMinute: 0, outputTokensPerMinute: 8000 });
    writeFileSync(path.join(cwd, 'wrench.config.yml'), 'modelBudget: { requestsPerMinute: -1 }\n');
    expect(() => loadConfig({}, cwd)).toThrow(/modelBudget\.requestsPerMinute/);
  });

  it('needs only the model key for wrench run', () => {
    expect(() => requireSettings(loadConfig({ ANTHROPIC_API_KEY: 'k' }, dir()), 'run')).not.toThrow();
  });
});
