/** What a credential found in outgoing work is: one of Wrench's own secrets (by its setting) or a secretlint rule's shape. */
export type SecretKind = { own: string } | { rule: string };

/** A secretlint rule's credential, in English ("a GitHub token"); an unknown rule is "a credential". */
export const SECRET_RULES_EN: Record<string, string> = {
  github: 'a GitHub token',
  slack: 'a Slack token or webhook URL',
  anthropic: 'an Anthropic API key',
  openai: 'an OpenAI API key',
  aws: 'an AWS credential',
  gcp: 'a Google Cloud credential',
  privatekey: 'a private key',
  'secp256k1-privatekey': 'a private key',
  basicauth: 'a password in a URL',
  'database-connection-string': 'a database password',
  npm: 'an npm token',
  sendgrid: 'a SendGrid API key',
  stripe: 'a Stripe key',
};

/** "Wrench's own GITHUB_TOKEN", "what looks like a GitHub token". */
export function secretKindEn(kind: SecretKind): string {
  return 'own' in kind ? `Wrench's own ${kind.own}` : `what looks like ${SECRET_RULES_EN[kind.rule] ?? 'a credential'}`;
}
