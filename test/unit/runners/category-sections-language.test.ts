import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bugFixSteps } from '../../../runners/category-steps/bug-fix-steps.js';
import { coverageSteps } from '../../../runners/category-steps/coverage-steps.js';
import { dataAnalysisSteps } from '../../../runners/category-steps/data-analysis-steps.js';
import type { StepContext } from '../../../runners/category-steps/step-types.js';
import type { RunResult } from '../../../src/reporting/run-result.js';
import { renderRunResult } from '../../../src/slack/render-run-result.js';
import { stringsFor } from '../../../src/slack/strings/index.js';
import type { RegressionEvidence } from '../../../src/verification/regression-check.js';
import { renderRegressionEvidence } from '../../../src/verification/render-regression.js';

const regression = vi.hoisted(() => ({ evidence: undefined as unknown }));
vi.mock('../../../src/workspace/working-tree-changes.js', () => ({ workingTreeChanges: async () => ['src/dates.js', 'test/dates.test.js'] }));
vi.mock('../../../src/verification/regression-check.js', () => ({ checkRegressionTests: async () => regression.evidence }));
vi.mock('../../../src/verification/measure-coverage.js', () => ({
  measureCoverage: vi
    .fn()
    .mockResolvedValueOnce({ command: 'npm run coverage', passed: true, total: { percent: 62.5, metric: 'lines', tool: 'istanbul' } })
    .mockResolvedValueOnce({ command: 'npm run coverage', passed: true, total: { percent: 81.25, metric: 'lines', tool: 'istanbul' } })
    .mockResolvedValue({ command: 'npm run coverage', passed: false }),
}));

const proven: RegressionEvidence = {
  testFiles: ['test/dates.test.js'],
  sourceFiles: ['src/dates.js'],
  results: [
    { test: 'friday is not weekend', verdict: 'proven', command: 'node --test test/dates.test.js' },
    { test: 'sunday is weekend', verdict: 'not-failing-before', command: 'npm test' },
  ],
};

const context = (language: string | undefined, extra: Partial<StepContext> = {}) =>
  ({
    job: { instruction: 'fix it', origin: { type: 'slack' }, language },
    dir: '/nonexistent',
    startSha: 'abc',
    progress: async () => undefined,
    log: { warn: () => undefined },
    signal: new AbortController().signal,
    ...extra,
  }) as unknown as StepContext;

/** The final reply of a run with these sections, as the thread shows it. */
const reply = (sections: RunResult['sections'], language: string) =>
  renderRunResult(
    {
      status: 'pr_opened',
      repository: 'acme/shop',
      instruction: 'x',
      filesChanged: [],
      durationMs: 1000,
      sections,
      pullRequest: { number: 3, url: 'https://g/3', draft: false, title: 't' },
    },
    {},
    stringsFor(language),
  )
    .map((part) => part.text)
    .join('\n');

/** Wrench's English words in these sections: none may reach a German or Japanese thread. */
const ENGLISH = [
  /Root cause/,
  /Regression test/,
  /Checked by Wrench/,
  /passes without the fix/,
  /Coverage/,
  / before → /,
  /Main result/,
  /From `/,
  /Not uploaded/,
  /too large/,
  /not a report/,
];

const noEnglish = (text: string) => {
  for (const english of ENGLISH) expect(text).not.toMatch(english);
};

describe("a bug fix's sections in the thread's language", () => {
  it('German and Japanese root cause and regression test beside the English ones; tests, commands and the agent’s words as they are', async () => {
    regression.evidence = proven;
    const report = { summary: 's', verification: 'v', filesChanged: [], openQuestions: [], rootCause: 'The week started on Monday.', regressionTests: [] };
    const de = await bugFixSteps(context('de')).after?.({ report });
    expect(de?.sections?.map((s) => s.title)).toEqual(['Root cause', 'Regression test']);
    expect(de?.sections?.[1]?.body).toContain('Regression test `friday is not weekend` failed before the fix and passes after');
    expect(de?.sections?.map((s) => s.inThread)).toEqual([
      { title: 'Ursache', body: 'The week started on Monday.' },
      {
        title: 'Regressionstest',
        body: [
          ':white_check_mark: Regressionstest `friday is not weekend` schlug ohne die Korrektur fehl und besteht mit ihr (`node --test test/dates.test.js`).',
          ':warning: `sunday is weekend` besteht auch ohne die Korrektur und zeigt den Fehler daher nicht (`npm test`).',
          '_Von Wrench geprüft: Die Tests liefen mit den korrigierten Quelldateien (`src/dates.js`) auf dem Stand des Basis-Commits, dann mit der Korrektur._',
        ].join('\n'),
      },
    ]);
    const deReply = reply(de?.sections, 'de');
    expect(deReply).toContain('*Ursache (Darstellung des Agenten)*');
    expect(deReply).toContain('> The week started on Monday.');
    noEnglish(deReply);

    const ja = await bugFixSteps(context('ja')).after?.({ report });
    expect(ja?.sections?.[0]?.inThread?.title).toBe('根本原因');
    expect(ja?.sections?.[1]?.inThread?.body).toContain(
      ':white_check_mark: 回帰テスト `friday is not weekend` は修正前に失敗し、修正後は成功します(`node --test test/dates.test.js`)。',
    );
    noEnglish(reply(ja?.sections, 'ja'));
  });

  it('says there is no regression test, or that the check failed, in German and Japanese', async () => {
    regression.evidence = { testFiles: [], sourceFiles: ['src/a.js'], results: [], note: 'no-test' };
    const de = await bugFixSteps(context('de')).after?.({});
    expect(de?.sections?.[0]?.inThread?.body).toBe(
      ':warning: Kein Regressionstest: Die Änderung fügt keine Testdatei hinzu und ändert keine, also zeigt nichts, dass der Fehler behoben ist.',
    );
    expect(de?.sections?.[0]?.body).toContain(':warning: No regression test');
    regression.evidence = Promise.reject(new Error('sandbox gone'));
    const ja = await bugFixSteps(context('ja')).after?.({});
    expect(ja?.sections?.[0]?.inThread).toEqual({ title: '回帰テスト', body: '回帰テストを確認できませんでした: sandbox gone' });
  });

  it('renders every verdict and note in German, Japanese, Spanish, French and Portuguese (none falls back to English)', () => {
    const all: RegressionEvidence = {
      ...proven,
      results: (['proven', 'failing-after', 'not-failing-before', 'not-run'] as const).map((verdict) => ({ test: 't', verdict, command: 'npm test' })),
    };
    for (const language of ['de', 'ja', 'es', 'fr', 'pt', 'zh']) {
      const t = stringsFor(language).regression;
      const english = renderRegressionEvidence(all).split('\n');
      const translated = renderRegressionEvidence(all, t).split('\n');
      for (const [i, line] of translated.entries()) expect(line, `${language}: ${english[i]}`).not.toBe(english[i]);
      for (const note of ['no-test', 'tests-only', 'no-command'] as const) {
        const evidence = { ...proven, note };
        expect(renderRegressionEvidence(evidence, t), `${language} ${note}`).not.toBe(renderRegressionEvidence(evidence));
      }
    }
  });

  it('keeps English alone for an English thread and for `wrench run`', async () => {
    regression.evidence = proven;
    expect((await bugFixSteps(context('en')).after?.({}))?.sections?.every((s) => s.inThread === undefined)).toBe(true);
    const cli = context('de');
    cli.job.origin = { type: 'cli' } as never;
    expect((await bugFixSteps(cli).after?.({}))?.sections?.every((s) => s.inThread === undefined)).toBe(true);
  });
});

describe("a testing run's coverage in the thread's language", () => {
  it('German and Japanese: the metric and the words translated, the command and the figures as they are', async () => {
    const verifier = { detected: { coverage: 'npm run coverage' } } as unknown as StepContext['verifier'];
    const steps = coverageSteps(context('de', { verifier }));
    await steps.before?.();
    const de = await steps.after?.({});
    expect(de?.sections?.[0]).toMatchObject({
      title: 'Coverage',
      body: '`npm run coverage`: lines 62.5% before → 81.25% after (+18.75 points).',
      inThread: { title: 'Testabdeckung', body: '`npm run coverage`: Zeilen vorher 62.5% → nachher 81.25% (+18.75 Prozentpunkte).' },
    });
    noEnglish(reply(de?.sections, 'de'));
    const ja = coverageSteps(context('ja', { verifier }));
    const after = await ja.after?.({});
    expect(after?.sections?.[0]?.inThread).toEqual({
      title: 'カバレッジ',
      body: '`npm run coverage`: カバレッジ 変更後 未計測(コマンドが失敗)(ベースコミットは未計測)。',
    });
    noEnglish(reply(after?.sections, 'ja'));
  });
});

describe("a data analysis's sections in the thread's language", () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('German and Japanese main result and files not uploaded; the table and paths as they are', async () => {
    for (const language of ['de', 'ja']) {
      dir = await mkdtemp(path.join(tmpdir(), 'wrench-analysis-'));
      await mkdir(path.join(dir, 'wrench-output'), { recursive: true });
      await writeFile(path.join(dir, 'wrench-output', 'report.md'), '# Sales\n\n| month | total |\n| --- | --- |\n| May | 12 |\n');
      await writeFile(path.join(dir, 'wrench-output', 'model.pkl'), 'x');
      const result = await dataAnalysisSteps(context(language, { dir })).after?.({});
      const [main, skipped] = result?.sections ?? [];
      expect(main?.title).toBe('Main result');
      expect(main?.body).toContain('From `wrench-output/report.md`; the report and charts are shared');
      expect(skipped?.body).toBe('- `wrench-output/model.pkl`: not a report or chart type I share');
      if (language === 'de') {
        expect(main?.inThread?.title).toBe('Hauptergebnis');
        expect(main?.inThread?.body).toContain(
          'Aus `wrench-output/report.md`; der Bericht und die Diagramme sind diesem Ergebnis beigefügt (nicht committet).',
        );
        expect(skipped?.inThread).toEqual({ title: 'Nicht hochgeladen', body: '- `wrench-output/model.pkl`: kein Bericht- oder Diagrammtyp, den ich teile' });
      } else {
        expect(main?.inThread?.title).toBe('主な結果');
        expect(skipped?.inThread?.body).toBe('- `wrench-output/model.pkl`: 共有するレポートやグラフの種類ではありません');
      }
      expect(main?.inThread?.body).toContain('May');
      noEnglish(reply(result?.sections, language));
      await rm(dir, { recursive: true, force: true });
    }
  });
});
