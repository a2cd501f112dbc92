import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const DOCS = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
/** A path into the repository written as code: `src/slack/thread-outbox.ts`, `runners/`, `docs/checks.md`. */
const CODE_PATH = /`((?:bin|app|src|handlers|runners|test|bench|docs|deploy)\/[A-Za-z0-9_./-]*)`/g;
/** A Markdown link's target (or an image's), when it is not a web address or an anchor in the same page. */
const LOCAL_LINK = /\]\((?!https?:|mailto:|#)([^)\s]+)\)/g;
/** A link in the same page: `[Benchmarks](#benchmarks)`. */
const SAME_PAGE_LINK = /\]\((#[^)\s]+)\)/g;
/** A link out of the repository: a Markdown link or an autolink to a web address. */
const WEB_LINK = /\]\((https?:\/\/[^)\s]+)\)|<(https?:\/\/[^>\s]+)>/g;
/**
 * The only places outside the repository the docs may send a reader: vendors' consoles a set-up step cannot avoid
 * (Slack's app settings). Everything else Wrench needs said is said in docs/.
 */
const VENDOR_HOSTS = new Set(['api.slack.com']);

const read = (doc: string) => readFileSync(path.join(ROOT, doc), 'utf8');

/** The anchors GitHub makes of a page's headings: lower case, punctuation dropped, spaces to dashes, repeats numbered. */
function anchors(doc: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const [, heading] of read(doc).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = (heading ?? '')
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count ? `${slug}-${count}` : slug);
  }
  return result;
}

describe('the README and docs are a true map', () => {
  it.each(DOCS)('%s names only files and folders that exist', (doc) => {
    const missing = [...read(doc).matchAll(CODE_PATH)].map((m) => m[1] ?? '').filter((p) => !p.includes('*') && !existsSync(path.join(ROOT, p)));
    expect(missing).toEqual([]);
  });

  it.each(DOCS)('%s links only inside the repository, to files and headings that exist', (doc) => {
    const text = read(doc);
    const broken: string[] = [];
    for (const [, target = ''] of text.matchAll(LOCAL_LINK)) {
      const [file = '', anchor] = target.split('#');
      const resolved = path.relative(ROOT, path.resolve(path.dirname(path.join(ROOT, doc)), file));
      if (resolved.startsWith('..') || !existsSync(path.join(ROOT, resolved))) broken.push(target);
      else if (anchor && resolved.endsWith('.md') && !anchors(resolved).has(anchor)) broken.push(`${target} (no such heading)`);
    }
    for (const [, target = ''] of text.matchAll(SAME_PAGE_LINK)) {
      if (!anchors(doc).has(target.slice(1))) broken.push(`${target} (no such heading)`);
    }
    expect(broken).toEqual([]);
  });

  it.each(DOCS)('%s sends the reader outside the repository only to a vendor console set-up needs', (doc) => {
    const outside = [...read(doc).matchAll(WEB_LINK)].map((m) => m[1] ?? m[2] ?? '').filter((url) => !VENDOR_HOSTS.has(new URL(url).host));
    expect(outside).toEqual([]);
  });

  it('every page under docs/ is reachable from the README or docs/README.md', () => {
    const linkedFrom = (doc: string) =>
      [...read(doc).matchAll(LOCAL_LINK)].map((m) => path.relative(ROOT, path.resolve(path.dirname(path.join(ROOT, doc)), (m[1] ?? '').split('#')[0] ?? '')));
    const linked = new Set([...linkedFrom('README.md'), ...linkedFrom('docs/README.md')]);
    expect(
      DOCS.filter((doc) => doc !== 'README.md' && doc !== 'docs/README.md' && !linked.has(doc)),
      'link these pages from docs/README.md (the table of contents)',
    ).toEqual([]);
    expect(linked.has('docs/README.md')).toBe(true);
  });
});
