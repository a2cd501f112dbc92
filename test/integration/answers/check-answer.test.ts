import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerReportSchema } from '../../../src/answers/answer-report.js';
import { answerDe, answerEn } from '../../../src/answers/answer-strings.js';
import { checkAnswer, citationUrl } from '../../../src/answers/checked-answer.js';
import { checkCitations, inlineCitations, lineCount, parseCitation } from '../../../src/answers/citations.js';
import { git, makeRepo } from '../../helpers/git-repo.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

const CHECKOUT = [
  'export async function pay(order) {',
  '  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {',
  '    try {',
  '      return await charge(order);',
  '    } catch {}',
  '  }',
  '}',
  '',
].join('\n');

describe('citations checked against the tree at a commit (real git)', () => {
  let dir: TempDir;
  let repo: string;
  let first: string;

  beforeAll(async () => {
    dir = await makeTempDir();
    repo = makeRepo(path.join(dir.path, 'repo'), {
      'src/checkout.ts': CHECKOUT, // 7 lines
      'src/config/limits.yml': 'search:\n  perMinute: 60\n', // 2 lines
      'README.md': 'no newline at the end', // 1 line
      'empty.txt': '',
    });
    first = git(repo, 'rev-parse', 'HEAD');
    // A later commit adds a file and grows another: the first commit's tree must not see them.
    writeFileSync(path.join(repo, 'src/later.ts'), 'export const later = 1;\n');
    writeFileSync(path.join(repo, 'README.md'), 'one\ntwo\nthree\nfour\n');
    git(repo, 'add', '-A');
    git(repo, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'later');
  });

  afterAll(async () => {
    await dir?.remove();
  });

  it('keeps a file and lines that exist at the commit; removes a missing file, a directory, lines past the end, paths outside', async () => {
    const refs = [
      'src/checkout.ts:2',
      'src/checkout.ts:1-7',
      'src/config/limits.yml:2',
      'src/checkout.ts:5-9', // past the end (7 lines)
      'src/checkout.ts:8',
      'src/later.ts:1', // only in the later commit
      'README.md:3', // the first commit's README has one line
      'src/config:1', // a directory
      'src/missing.ts:4',
      '../etc/passwd:1',
      'src/checkout.ts:0',
      'src/checkout.ts:6-2',
      'empty.txt:1',
    ];
    const checks = await checkCitations(
      repo,
      first,
      refs.map((ref) => parseCitation(ref)!),
    );
    expect(checks.map((check) => [check.citation.ref, check.ok ? 'ok' : check.reason])).toEqual([
      ['src/checkout.ts:2', 'ok'],
      ['src/checkout.ts:1-7', 'ok'],
      ['src/config/limits.yml:2', 'ok'],
      ['src/checkout.ts:5-9', 'beyond-end'],
      ['src/checkout.ts:8', 'beyond-end'],
      ['src/later.ts:1', 'no-such-file'],
      ['README.md:3', 'beyond-end'],
      ['src/config:1', 'not-a-file'],
      ['src/missing.ts:4', 'no-such-file'],
      ['../etc/passwd:1', 'outside-repository'],
      ['src/checkout.ts:0', 'invalid'],
      ['src/checkout.ts:6-2', 'invalid'],
      ['empty.txt:1', 'beyond-end'],
    ]);
    expect(checks[3]).toMatchObject({ ok: false, lines: 7 });
    // At the later commit the later file and the longer README hold.
    const head = git(repo, 'rev-parse', 'HEAD');
    const later = await checkCitations(
      repo,
      head,
      ['src/later.ts:1', 'README.md:3'].map((ref) => parseCitation(ref)!),
    );
    expect(later.every((check) => check.ok)).toBe(true);
  });

  it('renders the answer with links to the lines at the commit, removes and names the citations that do not hold', async () => {
    const report = answerReportSchema.parse({
      answer:
        'Checkout retries up to `MAX_ATTEMPTS` times in `src/checkout.ts:2-6`; the limit itself is in src/config/limits.yml:2 and src/retry.ts:3. See [here](https://evil.example/x).',
      claims: [
        { statement: 'The loop swallows every error of `charge`.', citations: ['src/checkout.ts:5', 'src/checkout.ts:40-44'] },
        { statement: 'Retries are logged.', citations: ['src/log.ts:9'] },
      ],
      notFound: ['Where MAX_ATTEMPTS is set.'],
    });
    const checked = await checkAnswer(report, { dir: repo, sha: first, htmlBase: 'https://github.com/acme/shop' }, answerEn);
    const base = `https://github.com/acme/shop/blob/${first}`;
    expect(checked.answer).toBe(
      `Checkout retries up to \`MAX_ATTEMPTS\` times in [src/checkout.ts:2-6](${base}/src/checkout.ts#L2-L6); the limit itself is in [src/config/limits.yml:2](${base}/src/config/limits.yml#L2) and (citation removed). See here.`,
    );
    expect(checked.claims).toEqual([
      `- The loop swallows every error of \`charge\`. ([src/checkout.ts:5](${base}/src/checkout.ts#L5))`,
      '- Retries are logged. (no citation left)',
    ]);
    expect(checked.removed.map((r) => [r.citation.ref, r.reason])).toEqual([
      ['src/retry.ts:3', 'no-such-file'],
      ['src/checkout.ts:40-44', 'beyond-end'],
      ['src/log.ts:9', 'no-such-file'],
    ]);
    // No removed citation is shown as a link, and no link but Wrench's.
    const shown = [checked.answer, ...checked.claims].join('\n');
    for (const bad of ['src/retry.ts', 'src/checkout.ts#L40', 'src/log.ts', 'evil.example']) expect(shown).not.toContain(bad);
    expect([...shown.matchAll(/\]\(([^)]+)\)/g)].every(([, url]) => url!.startsWith(`${base}/`))).toBe(true);
    // The findings a follow-up starts from: the checked citations as written, the removed ones gone.
    expect(checked.findings).toContain('src/checkout.ts:2-6');
    expect(checked.findings).toContain('- The loop swallows every error of `charge`. (src/checkout.ts:5)');
    expect(checked.findings).toContain('Where MAX_ATTEMPTS is set.');
    expect(checked.findings).not.toContain('src/log.ts');
    expect(checked.findings).not.toContain('40-44');
  });

  it("says what it removed in the thread's language, and shows citations unlinked where there is no web page", async () => {
    const report = answerReportSchema.parse({ answer: 'Siehe src/checkout.ts:4 und src/nope.ts:1.', claims: [] });
    const checked = await checkAnswer(report, { dir: repo, sha: first }, answerDe);
    expect(checked.answer).toBe('Siehe `src/checkout.ts:4` und (Belegstelle entfernt).');
    expect(answerDe.removed(checked.removed[0]!.citation.ref, checked.removed[0]!.reason)).toBe('`src/nope.ts:1`: diese Datei gibt es in diesem Commit nicht');
    expect(answerEn.removed('src/a.ts:9', 'beyond-end', 7)).toBe('`src/a.ts:9`: the file has 7 lines');
  });
});

describe('citations in prose', () => {
  it('finds path:line and path:start-end, not times, hosts or URLs', () => {
    const text = 'At 14:05 the `src/a.ts:10-12` path and lib/b.js:3, README.md:1 and src/c.ts:4–6; not https://api.example.com:443 or v1:2.';
    expect(inlineCitations(text).map((found) => found.citation.ref)).toEqual(['src/a.ts:10-12', 'lib/b.js:3', 'README.md:1', 'src/c.ts:4-6']);
  });

  it('links to GitHub Enterprise as configured, a single line without a range', () => {
    const sha = 'a'.repeat(40);
    expect(citationUrl({ htmlBase: 'https://ghe.acme.dev/acme/web/', sha }, parseCitation('src/dir with space/x.ts:7')!)).toBe(
      `https://ghe.acme.dev/acme/web/blob/${sha}/src/dir%20with%20space/x.ts#L7`,
    );
    expect(citationUrl({ htmlBase: undefined, sha }, parseCitation('src/x.ts:7')!)).toBeUndefined();
  });

  it('counts lines as an editor does', () => {
    expect([lineCount(''), lineCount('a'), lineCount('a\n'), lineCount('a\nb'), lineCount('a\n\n')]).toEqual([0, 1, 1, 2, 2]);
  });
});
