import { lintSource } from '@secretlint/core';
import { creator as recommendedRules } from '@secretlint/secretlint-rule-preset-recommend';
import type { NamedSecret } from './redact.js';
import type { SecretKind } from './secret-kind.js';

/** One place in a text that holds a credential; never the value itself. */
export interface SecretHit {
  /** 1-based line number, as the caller numbered the lines. */
  line: number;
  /** What it holds (said for people by secretKindEn or the thread's catalogue). */
  kind: SecretKind;
}

export interface ScannedLine {
  line: number;
  text: string;
}

/** secretlint's recommended rules, AWS access key ids included (off by default: alone they are not a credential, but they name one). */
const RULES = {
  id: '@secretlint/secretlint-rule-preset-recommend',
  rule: recommendedRules,
  rules: [{ id: '@secretlint/secretlint-rule-aws', options: { enableIDScanRule: true } }],
};

/** Fragments of a secret worth looking for on one line: the whole value, and each long line of a multi-line one (a PEM key). */
function needles(secret: NamedSecret): string[] {
  const parts = secret.value
    .split(/\r?\n/)
    .map((part) => part.trim())
    .filter((part) => part.length >= 16 && !/^-----(BEGIN|END) /.test(part));
  return [...new Set([secret.value, ...parts])].filter((needle) => needle.length >= 6);
}

/**
 * Lines that hold one of Wrench's own secrets (exact values, named by their setting) or something shaped like a
 * credential (secretlint's recommended rules: GitHub, Slack, AWS, Anthropic, private keys, passwords in URLs...).
 * The lines are scanned joined in the order given, so a key spread over consecutive lines is still found.
 */
export async function findSecrets(lines: readonly ScannedLine[], secrets: readonly NamedSecret[]): Promise<SecretHit[]> {
  const hits: SecretHit[] = [];
  const lookFor = secrets.flatMap((secret) => needles(secret).map((needle) => ({ needle, name: secret.name })));
  for (const { line, text } of lines) {
    const own = lookFor.find(({ needle }) => text.includes(needle));
    if (own) hits.push({ line, kind: { own: own.name } });
  }
  if (lines.length === 0) return hits;
  const content = lines.map((l) => l.text).join('\n');
  const result = await lintSource({
    source: { filePath: '/outgoing', content, contentType: 'text' },
    options: { config: { rules: [RULES] }, maskSecrets: true, noPhysicFilePath: true },
  });
  for (const message of result.messages) {
    const line = lines[message.loc.start.line - 1]?.line;
    if (line === undefined || hits.some((hit) => hit.line === line)) continue;
    const rule = message.ruleId.replace(/^@secretlint\/secretlint-rule-/, '');
    hits.push({ line, kind: { rule } });
  }
  return hits.sort((a, b) => a.line - b.line);
}
