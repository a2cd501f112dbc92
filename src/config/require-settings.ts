import type { Config } from './load-config.js';
import { ConfigError } from './config-error.js';

export type Role = 'all' | 'web' | 'worker' | 'run';

const needs: Record<Role, Array<'slack' | 'model' | 'github'>> = {
  all: ['slack', 'model', 'github'],
  web: ['slack'],
  worker: ['slack', 'model', 'github'],
  run: ['model'],
};

/** Lists, in one message, every variable a role needs and does not have. */
export function requireSettings(config: Config, role: Role): void {
  const env = config.env;
  const missing: string[] = [];
  if (needs[role].includes('slack')) {
    if (!env.SLACK_BOT_TOKEN) missing.push('SLACK_BOT_TOKEN (the Bot User OAuth Token, xoxb-..., from OAuth & Permissions)');
    if (!env.SLACK_SIGNING_SECRET && !env.SLACK_APP_TOKEN)
      missing.push('SLACK_SIGNING_SECRET (Basic Information > Signing Secret), or SLACK_APP_TOKEN (xapp-...) for Socket Mode');
  }
  if (needs[role].includes('model') && !env.ANTHROPIC_API_KEY) missing.push('ANTHROPIC_API_KEY (your Anthropic API key)');
  if (needs[role].includes('github') && !env.GITHUB_TOKEN) {
    if (env.GITHUB_APP_ID && !env.GITHUB_APP_PRIVATE_KEY)
      missing.push('GITHUB_APP_PRIVATE_KEY or GITHUB_APP_PRIVATE_KEY_PATH (the .pem private key generated for the GitHub App)');
    else if (!env.GITHUB_APP_ID && env.GITHUB_APP_PRIVATE_KEY) missing.push("GITHUB_APP_ID (the App ID on the GitHub App's settings page)");
    else if (!env.GITHUB_APP_ID)
      missing.push(
        'GITHUB_TOKEN (a token that can push branches and open pull requests), or GITHUB_APP_ID with GITHUB_APP_PRIVATE_KEY / GITHUB_APP_PRIVATE_KEY_PATH for a GitHub App',
      );
  }
  if (env.SLACK_APP_TOKEN && !env.SLACK_APP_TOKEN.startsWith('xapp-'))
    missing.push('SLACK_APP_TOKEN must be an app-level token starting with xapp- (Basic Information > App-Level Tokens, scope connections:write)');
  if (missing.length > 0) {
    throw new ConfigError(`Wrench cannot start (${role}); set these environment variables:\n${missing.map((m) => `- ${m}`).join('\n')}`);
  }
}
