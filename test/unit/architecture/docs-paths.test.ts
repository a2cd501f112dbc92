import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const DOCS = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).map((name) => `docs/${name}`)];
/** A path into the repository written as code: `src/slack/thread-outbox.ts`, `runners/`, `docs/checks.md`. */
const CODE_PATH = /`((?:bin|app|src|handlers|runners|test|bench|docs|deploy)\/[A-Za-z0-9_./-]*)`/g;
/** A Markdown link's target, when it is not a web address or an anchor. */
const LOCAL_LINK = /\]\((?!https?:|mailto:|#)([^)\s]+)\)/g;

describe('the README and docs are a true map', () => {
  it.each(DOCS)('%s names only files and folders that exist', (doc) => {
    const text = readFileSync(path.join(ROOT, doc), 'utf8');
    const missing = [...text.matchAll(CODE_PATH)].map((m) => m[1] ?? '').filter((p) => !p.includes('*') && !existsSync(path.join(ROOT, p)));
    expect(missing).toEqual([]);
  });

  it.each(DOCS)('%s links only inside the repository, to files that exist', (doc) => {
    const text = readFileSync(path.join(ROOT, doc), 'utf8');
    const targets = [...text.matchAll(LOCAL_LINK)].map((m) => (m[1] ?? '').split('#')[0] ?? '').filter(Boolean);
    const resolved = targets.map((target) => path.relative(ROOT, path.resolve(path.dirname(path.join(ROOT, doc)), target)));
    expect(resolved.filter((p) => p.startsWith('..') || !existsSync(path.join(ROOT, p)))).toEqual([]);
  });
});
