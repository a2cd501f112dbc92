import { Writable } from 'node:stream';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOctokit } from '../../../src/github/create-octokit.js';
import { createLogger } from '../../../src/logging/logger.js';
import { createRedactor } from '../../../src/security/redact.js';
import { postGitHubReview } from '../../../src/review/github-review.js';
import { git, gitOut } from '../../fakes/github/git.js';
import { startGitHubFake, type GitHubFake } from '../../fakes/github-fake.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

const LINES = Array.from({ length: 30 }, (_, i) => `export const line${i + 1} = ${i + 1};`).join('\n') + '\n';

describe('a review comment GitHub refuses (422, outside the diff)', () => {
  let fake: GitHubFake;
  let work: TempDir;
  let headSha: string;

  beforeAll(async () => {
    fake = await startGitHubFake();
    work = await makeTempDir();
    await fake.createRepo('acme', 'web', { 'src/app.ts': LINES });
    const clone = join(work.path, 'web');
    // Pushing to GitHub takes a token (here in the URL, as a person's git would send it).
    await git(['clone', '--quiet', `${fake.gitBaseUrl.replace('://', '://x-access-token:ghp_person@')}/acme/web.git`, clone]);
    await git(['checkout', '--quiet', '-b', 'feature'], { cwd: clone });
    await writeFile(join(clone, 'src/app.ts'), LINES.replace('line10 = 10', 'line10 = 100'));
    await git(['commit', '--quiet', '-am', 'Change line 10'], { cwd: clone });
    await git(['push', '--quiet', 'origin', 'feature'], { cwd: clone });
    headSha = await gitOut(['rev-parse', 'HEAD'], { cwd: clone });
    await fake.createPull('acme', 'web', { title: 'Change line 10', head: 'feature' });
  });

  afterAll(async () => {
    await fake.stop();
    await work.remove();
  });

  it('is retried body-only and logged as a warning, never as an error', async () => {
    const lines: Array<{ level: number; msg: string }> = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const logger = createLogger({ level: 'debug', destination });
    const github = createOctokit({ token: 'ghp_test', baseUrl: fake.url, logger });
    const posted = await postGitHubReview(
      github,
      { owner: 'acme', repo: 'web', number: 1, headSha },
      { event: 'COMMENT', body: 'Review', comments: [{ path: 'src/app.ts', line: 28, side: 'RIGHT', body: 'outside the hunk' }] },
      createRedactor(),
    );
    expect(posted).toMatchObject({ inline: 0, inlineRefused: expect.stringMatching(/Line could not be resolved/) });
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
    expect(lines.some((l) => l.level === 40 && / - 422 with id /.test(l.msg))).toBe(true);
    const reviews = fake.requests.filter((r) => r.method === 'POST' && /\/reviews$/.test(r.path));
    expect(reviews).toHaveLength(2);
    expect(JSON.stringify(reviews[1]!.body)).toContain('src/app.ts:28');
  });
});
