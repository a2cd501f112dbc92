import { createPrivateKey, type KeyObject } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { configFileSchema, type ConfigFile } from './config-file.js';
import { ConfigError, describeIssues } from './config-error.js';
import { envSchema, withoutEmptyValues, type EnvOptions } from './env-options.js';

export interface Config {
  env: EnvOptions;
  file: ConfigFile;
  /** Absolute path of the config file that was read, or null when none exists. */
  configPath: string | null;
  dataDir: string;
}

/** Reads and validates the environment and wrench.config.yml once. Throws ConfigError naming every bad value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const parsedEnv = envSchema.safeParse(withoutEmptyValues(env));
  if (!parsedEnv.success) {
    throw new ConfigError(`The environment is not valid:\n${describeIssues(parsedEnv.error.issues, (p) => String(p[0] ?? 'environment'))}`);
  }
  checkRedisCluster(parsedEnv.data);
  if (parsedEnv.data.GITHUB_APP_PRIVATE_KEY_PATH && !parsedEnv.data.GITHUB_APP_PRIVATE_KEY) {
    const keyPath = path.resolve(cwd, parsedEnv.data.GITHUB_APP_PRIVATE_KEY_PATH);
    parsedEnv.data.GITHUB_APP_PRIVATE_KEY = checkPrivateKey(readPrivateKey(keyPath), `GITHUB_APP_PRIVATE_KEY_PATH (${keyPath})`);
  } else if (parsedEnv.data.GITHUB_APP_PRIVATE_KEY) {
    checkPrivateKey(parsedEnv.data.GITHUB_APP_PRIVATE_KEY, 'GITHUB_APP_PRIVATE_KEY');
  }
  const configPath = path.resolve(cwd, parsedEnv.data.WRENCH_CONFIG ?? 'wrench.config.yml');
  const file = readConfigFile(configPath, parsedEnv.data.WRENCH_CONFIG !== undefined);
  if (parsedEnv.data.WRENCH_CONCURRENCY !== undefined) file.limits.concurrency = parsedEnv.data.WRENCH_CONCURRENCY;
  checkThreadRetention(parsedEnv.data, file);
  return {
    env: parsedEnv.data,
    file,
    configPath: existsSync(configPath) ? configPath : null,
    dataDir: path.resolve(cwd, parsedEnv.data.WRENCH_DATA_DIR),
  };
}

/** A run paused on its question resumes from its thread's session: the session must outlive the wait for the answer. */
function checkThreadRetention(env: EnvOptions, file: ConfigFile): void {
  const hours = file.limits.questionTimeoutHours;
  if (env.WRENCH_THREAD_RETENTION_DAYS * 24 <= hours) {
    throw new ConfigError(
      `WRENCH_THREAD_RETENTION_DAYS (${env.WRENCH_THREAD_RETENTION_DAYS}) must be longer than limits.questionTimeoutHours (${hours} hours): a run paused on its question resumes from its thread's session.`,
    );
  }
}

/**
 * On a Redis Cluster BullMQ's and Wrench's Lua scripts and transactions need all their keys in one slot: the prefix
 * must be a hash tag (`{wrench}`), or the first script would be refused with CROSSSLOT.
 */
function checkRedisCluster(env: EnvOptions): void {
  if (!env.REDIS_CLUSTER_NODES) return;
  if (!/^\{.+\}$/.test(env.WRENCH_QUEUE_PREFIX)) {
    throw new ConfigError(
      `REDIS_CLUSTER_NODES is set, so WRENCH_QUEUE_PREFIX must be a hash tag in braces (e.g. WRENCH_QUEUE_PREFIX={wrench}), not "${env.WRENCH_QUEUE_PREFIX}": on a Redis Cluster every key of Wrench's and BullMQ's scripts has to be in one slot.`,
    );
  }
  if (!env.REDIS_URL) {
    throw new ConfigError(
      'REDIS_CLUSTER_NODES is set, so REDIS_URL must be one node of the cluster, with its password (REDIS_URL=redis://:PASSWORD@10.0.0.1:6379).',
    );
  }
  if (env.REDIS_SENTINELS) {
    throw new ConfigError('REDIS_CLUSTER_NODES and REDIS_SENTINELS are both set; a Redis Cluster fails over by itself: set one of them.');
  }
}

/**
 * The App's key as OpenSSL reads it, checked once at start-up: a damaged or truncated PEM (a copy that lost a line, an
 * encrypted key) would otherwise pass until the first run signs a token and fails with a decoder error naming nothing.
 */
function checkPrivateKey(pem: string, source: string): string {
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch (error) {
    const reason = (error as Error).message.replace(/^error:[0-9A-F]+:/, '');
    throw new ConfigError(
      `${source} holds a private key OpenSSL cannot read (${reason}); generate a new private key on the GitHub App's settings page and use its .pem file as it was downloaded.`,
    );
  }
  if (key.asymmetricKeyType !== 'rsa')
    throw new ConfigError(
      `${source} holds a key of type ${key.asymmetricKeyType}; a GitHub App's private key is RSA (the .pem file generated on the App's settings page).`,
    );
  return pem;
}

function readPrivateKey(keyPath: string): string {
  let key: string;
  try {
    key = readFileSync(keyPath, 'utf8');
  } catch (error) {
    throw new ConfigError(
      `GITHUB_APP_PRIVATE_KEY_PATH points at ${keyPath}, which cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); download the App's private key (.pem) there.`,
    );
  }
  if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(key)) {
    throw new ConfigError(`GITHUB_APP_PRIVATE_KEY_PATH: ${keyPath} is not a PEM private key; use the .pem file GitHub generated for the App.`);
  }
  return key;
}

export function readConfigFile(configPath: string, mustExist: boolean): ConfigFile {
  if (!existsSync(configPath)) {
    if (mustExist) throw new ConfigError(`WRENCH_CONFIG points at ${configPath}, which does not exist. Create it or unset WRENCH_CONFIG.`);
    return configFileSchema.parse({});
  }
  if (statSync(configPath).isDirectory()) {
    throw new ConfigError(
      `${configPath} is a directory, not a YAML file. Docker makes an empty directory there when the file it was asked to mount is missing: create wrench.config.yml next to docker-compose.yml (from wrench.config.example.yml), delete the empty directory Docker left in its place, and start again.`,
    );
  }
  let raw: unknown;
  try {
    raw = parseYaml(readFileSync(configPath, 'utf8')) ?? {};
  } catch (error) {
    throw new ConfigError(`${configPath} is not valid YAML: ${(error as Error).message}`);
  }
  return parseConfigFile(raw, configPath);
}

export function parseConfigFile(raw: unknown, source = 'wrench.config.yml'): ConfigFile {
  const parsed = configFileSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(`${source} is not valid:\n${describeIssues(parsed.error.issues, (p) => p.map(String).join('.') || '(top level)')}`);
  }
  return parsed.data;
}
