const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** Variables whose names say they hold a credential of a service Wrench talks to. */
const FORBIDDEN_NAME = /^(SLACK|ANTHROPIC|GITHUB|GH|PAGERDUTY|REDIS|WRENCH)_/i;
const VALID_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Secrets at least this long are also refused when they appear inside a longer value. */
const SUBSTRING_MIN = 8;

/**
 * As on a CI runner: no prompts, no pager, no TERM. Colour is left to the program (TERM=dumb, NO_COLOR and
 * FORCE_COLOR change what some test suites expect); output is read with its colour codes stripped instead.
 */
const NON_INTERACTIVE: Record<string, string> = {
  CI: 'true',
  PAGER: 'cat',
  GIT_PAGER: 'cat',
  GIT_TERMINAL_PROMPT: '0',
  GIT_EDITOR: 'true',
  EDITOR: 'true',
  VISUAL: 'true',
  GIT_SSH_COMMAND: 'ssh -o BatchMode=yes',
  DEBIAN_FRONTEND: 'noninteractive',
  npm_config_yes: 'true',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
  PIP_NO_INPUT: '1',
  PIP_DISABLE_PIP_VERSION_CHECK: '1',
  PYTHONUNBUFFERED: '1',
};

/** Where the host's trusted certificates are (a TLS-intercepting proxy's CA, say): paths, never secrets, so installs work. */
const CERTIFICATE_PATHS = ['NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR', 'CURL_CA_BUNDLE', 'REQUESTS_CA_BUNDLE', 'PIP_CERT', 'GIT_SSL_CAINFO'];

/**
 * The variables that make Node.js, npm, pnpm, Yarn 1, pip, requests, git and curl trust the CA bundle `file` (PEM; a
 * TLS-intercepting proxy's): `sandbox.setupCaFile`, given to the commands with network (the setup step).
 */
export function caFileEnv(file: string): Record<string, string> {
  return {
    NODE_EXTRA_CA_CERTS: file,
    npm_config_cafile: file,
    PIP_CERT: file,
    REQUESTS_CA_BUNDLE: file,
    GIT_SSL_CAINFO: file,
    CURL_CA_BUNDLE: file,
  };
}

/** The certificate files and directories the host's environment names, as passed to commands. */
export function certificatePaths(base: NodeJS.ProcessEnv = process.env): string[] {
  return CERTIFICATE_PATHS.flatMap((name) => (base[name]?.startsWith('/') ? [base[name]] : []));
}

export interface SandboxEnvOptions {
  /** The HOME the command sees: inside the workspace or a private directory. */
  home: string;
  /** Values that must never reach a command (tokens, keys). */
  secrets?: readonly string[];
  /** Where PATH, LANG, LC_ALL and TZ are taken from. Default: process.env. */
  base?: NodeJS.ProcessEnv;
}

/**
 * The environment of a sandboxed command, built from an allowlist only. Credentials never pass,
 * not even through `extra`: names of Wrench's services and values equal to a secret are dropped.
 */
export function buildSandboxEnv(extra: Record<string, string> = {}, options: SandboxEnvOptions): Record<string, string> {
  const base = options.base ?? process.env;
  const env: Record<string, string> = {
    PATH: base.PATH || DEFAULT_PATH,
    HOME: options.home,
    LANG: base.LANG || 'C.UTF-8',
    TZ: base.TZ || 'UTC',
    ...NON_INTERACTIVE,
  };
  if (base.LC_ALL) env.LC_ALL = base.LC_ALL;
  for (const name of CERTIFICATE_PATHS) if (base[name]?.startsWith('/')) env[name] = base[name];
  for (const [name, value] of Object.entries(extra)) env[name] = value;

  const isSecret = secretMatcher(options.secrets ?? []);
  for (const [name, value] of Object.entries(env)) {
    if (typeof value !== 'string' || !VALID_NAME.test(name) || FORBIDDEN_NAME.test(name) || isSecret(value)) delete env[name];
  }
  if (!env.PATH) env.PATH = DEFAULT_PATH;
  return env;
}

function secretMatcher(secrets: readonly string[]): (value: string) => boolean {
  const known = secrets.filter((secret) => secret.length > 0);
  return (value) => known.some((secret) => value === secret || (secret.length >= SUBSTRING_MIN && value.includes(secret)));
}
