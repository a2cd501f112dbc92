import { describe, expect, it, vi } from 'vitest';
import { bugFixSteps } from '../../../runners/category-steps/bug-fix-steps.js';
import { coverageSteps } from '../../../runners/category-steps/coverage-steps.js';
import type { StepContext } from '../../../runners/category-steps/step-types.js';
import { workspaceTools } from '../../../src/agent/workspace-tools.js';
import type { Logger } from '../../../src/logging/logger.js';
import { ConsoleReporter } from '../../../src/reporting/console-reporter.js';
import { type ProgressDetail, type ProgressKey, progressEn, renderProgress } from '../../../src/reporting/progress.js';
import type { RunReporter } from '../../../src/reporting/run-result.js';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import { SlackRunReporter } from '../../../src/slack/slack-run-reporter.js';
import { stringsFor } from '../../../src/slack/strings/index.js';
import type { ThreadOutbox } from '../../../src/slack/thread-outbox.js';

vi.mock('../../../src/workspace/working-tree-changes.js', () => ({ workingTreeChanges: async () => ['src/a.js', 'test/a.test.js'] }));
vi.mock('../../../src/verification/regression-check.js', () => ({
  checkRegressionTests: async () => ({ testFiles: [], sourceFiles: ['src/a.js'], results: [], note: 'no-test' }),
}));
vi.mock('../../../src/verification/measure-coverage.js', () => ({ measureCoverage: async () => ({ command: 'npm run coverage', passed: false }) }));

/** One detail of every key: a key added without a sample here does not compile. */
const SAMPLES: { [K in ProgressKey]: Extract<ProgressDetail, { key: K }> } = {
  cloning: { key: 'cloning', repository: 'acme/web', readOnly: true },
  checkingOut: { key: 'checkingOut', branch: 'wrench/fix-1' },
  checkingOutHead: { key: 'checkingOutHead', number: 7 },
  readingPull: { key: 'readingPull', number: 7 },
  preparingReadOnly: { key: 'preparingReadOnly', repository: 'acme/web' },
  preparingBranch: { key: 'preparingBranch', branch: 'wrench/revert-abc', base: 'main' },
  installing: { key: 'installing', command: 'npm ci' },
  installingNode: { key: 'installingNode', version: '22.1.0', source: '.nvmrc' },
  refreshing: { key: 'refreshing', command: 'npm rebuild' },
  dependenciesInPlace: { key: 'dependenciesInPlace' },
  dependenciesRestored: { key: 'dependenciesRestored' },
  installFailed: { key: 'installFailed', command: 'npm ci', timedOut: false, exitCode: 1 },
  refreshFailed: { key: 'refreshFailed', command: 'npm rebuild', timedOut: true, exitCode: null },
  testsOnBase: { key: 'testsOnBase' },
  readingCode: { key: 'readingCode' },
  reviewingPull: { key: 'reviewingPull', number: 7 },
  reviewingCode: { key: 'reviewingCode' },
  investigating: { key: 'investigating' },
  readingIncident: { key: 'readingIncident' },
  readingChanges: { key: 'readingChanges', branch: 'main', hours: 24, before: 'incident' },
  running: { key: 'running', command: 'npm test' },
  reading: { key: 'reading', path: 'src/a.js' },
  editing: { key: 'editing', path: 'src/a.js' },
  askingServer: { key: 'askingServer', server: 'sentry', tool: 'list_issues' },
  askingRequester: { key: 'askingRequester' },
  updatingPlan: { key: 'updatingPlan' },
  queryingMetrics: { key: 'queryingMetrics', query: 'up' },
  listingMetrics: { key: 'listingMetrics', mode: 'labels' },
  tool: { key: 'tool', name: 'finish' },
  testsAfterChange: { key: 'testsAfterChange' },
  testsAfterRevert: { key: 'testsAfterRevert' },
  testsAgain: { key: 'testsAgain' },
  waitingForBaseline: { key: 'waitingForBaseline' },
  fixingBreakage: { key: 'fixingBreakage' },
  regressionTestFails: { key: 'regressionTestFails' },
  coverageOnBase: { key: 'coverageOnBase', command: 'npm run coverage' },
  coverageAfter: { key: 'coverageAfter' },
  downloading: { key: 'downloading', count: 2 },
  pushing: { key: 'pushing', branch: 'wrench/fix-1' },
  pushingDraft: { key: 'pushingDraft', branch: 'wrench/revert-abc' },
  keepingWork: { key: 'keepingWork', branch: 'wrench/fix-1' },
  askedQuestion: { key: 'askedQuestion', user: '<@U0ALICE>' },
  nothingPushed: { key: 'nothingPushed' },
  cancelledBeforeStart: { key: 'cancelledBeforeStart' },
  stoppedDuring: { key: 'stoppedDuring', by: '<@U0ALICE> on the run page', stage: 'setup' },
  retrying: { key: 'retrying', problem: 'ECONNRESET' },
  waitingThread: { key: 'waitingThread' },
  waitingGlobal: { key: 'waitingGlobal' },
  waitingRepository: { key: 'waitingRepository' },
  waitingUser: { key: 'waitingUser' },
  waitingDisk: { key: 'waitingDisk', freeMb: 412, needMb: 1024 },
};

/** A run's status card in a thread of `language`: what each edit of it said. */
function threadCard(language: string) {
  const shown: string[] = [];
  const outbox = {
    update: async (_thread: unknown, _key: string, message: { text?: string }) => void shown.push(message.text ?? ''),
    status: async () => undefined,
    post: async () => undefined,
    react: async () => undefined,
    unreact: async () => undefined,
  } as unknown as ThreadOutbox;
  const log = { warn: () => undefined } as unknown as Logger;
  const target = {
    team: 'T0TEAM',
    channel: 'C0RUNS',
    threadTs: '1.1',
    statusKey: 'status:job-1',
    repository: 'acme/web',
    reading: { category: 'bug-fixing' as const, complexity: 'simple' as const, elements: {} },
    language,
  };
  return { reporter: new SlackRunReporter(outbox, target, undefined, log, 0), shown };
}

const stepContext = (reporter: RunReporter, extra: Partial<StepContext> = {}) =>
  ({
    job: { instruction: 'fix it', origin: { type: 'slack' }, language: 'de' },
    dir: '/nonexistent',
    startSha: 'abc',
    progress: (detail: ProgressDetail) => reporter.phase('verifying', detail),
    log: { warn: () => undefined },
    signal: new AbortController().signal,
    ...extra,
  }) as unknown as StepContext;

describe('progress details are typed values each surface says in its own words', () => {
  it('has every phrase in German, Japanese, Spanish, French, Portuguese and Chinese, none left in English (the compiler checks each is there)', () => {
    for (const language of ['de', 'ja', 'es', 'fr', 'pt', 'zh']) {
      const progress = stringsFor(language).progress;
      for (const detail of Object.values(SAMPLES)) {
        if (detail.key === 'tool') continue; // a tool's name, in every language
        expect(renderProgress(detail, progress), `${language}: ${detail.key}`).not.toBe(renderProgress(detail));
      }
    }
  });

  it('says the English phrases the run page and the terminal have always shown', () => {
    expect(renderProgress(SAMPLES.cloning)).toBe('cloning acme/web (read-only)');
    expect(renderProgress(SAMPLES.installing)).toBe('installing dependencies (`npm ci`)');
    expect(renderProgress(SAMPLES.running)).toBe('running `npm test`');
    expect(renderProgress(SAMPLES.downloading)).toBe('downloading 2 attached files');
    expect(renderProgress(SAMPLES.installFailed)).toBe('could not install dependencies: `npm ci` exited with code 1');
    expect(renderProgress(SAMPLES.readingChanges)).toBe('reading the changes on `main` in the 24 h before the incident');
    expect(renderProgress({ key: 'running', command: 'npm test' }, stringsFor('es').progress)).toBe('ejecutando `npm test`');
    expect(renderProgress({ key: 'running', command: 'npm test' }, stringsFor('fr').progress)).toBe('exécution de `npm test`');
    expect(renderProgress({ key: 'running', command: 'npm test' }, stringsFor('pt').progress)).toBe('rodando `npm test`');
    expect(renderProgress({ key: 'running', command: 'npm test' }, stringsFor('zh').progress)).toBe('正在运行 `npm test`');
    expect(stringsFor('en').progress).toBe(progressEn);
  });

  it('says what the egress policy refused in a failed install in German and Japanese, the host and setting as they are', () => {
    const refused: ProgressDetail = { ...SAMPLES.installFailed, egress: [{ host: 'evil.example', port: 443, reason: 'not-allowed' }] };
    expect(renderProgress(refused, stringsFor('de').progress)).toBe(
      'Abhängigkeiten konnten nicht installiert werden: `npm ci` endete mit Exit-Code 1. Die Installation konnte dieses Ziel nicht erreichen: evil.example:443: nicht in der Liste erlaubter Ziele (sandbox.egress.allow).',
    );
    expect(renderProgress(refused, stringsFor('ja').progress)).toBe(
      '依存関係をインストールできませんでした: `npm ci` が終了コード 1 で終了しました。セットアップは次の接続先に到達できませんでした: evil.example:443: 送信先の許可リスト(sandbox.egress.allow)にありません。',
    );
    expect(renderProgress(refused)).toBe(
      'could not install dependencies: `npm ci` exited with code 1. Setup could not reach evil.example:443: not in the egress allow list (sandbox.egress.allow).',
    );
  });

  it("reaches a German thread in German from the runners' own call sites, and the terminal in English", async () => {
    const { reporter, shown } = threadCard('de');
    const lines: string[] = [];
    const terminal = new ConsoleReporter((line) => void lines.push(line));
    const both: RunReporter = {
      phase: async (phase, detail) => {
        await terminal.phase(phase, detail);
        await reporter.phase(phase, detail);
      },
      finished: async () => undefined,
      failed: async () => undefined,
    };
    // A category's steps (runners/category-steps) and the agent's bash tool (src/agent), as the pipeline wires them.
    const verifier = { detected: { coverage: 'npm run coverage' } } as unknown as StepContext['verifier'];
    await coverageSteps(stepContext(both, { verifier })).before?.();
    await bugFixSteps(stepContext(both)).after?.({});
    const bash = workspaceTools({ sandbox: {} as Sandbox, root: '/nonexistent', readOnly: false, network: false })[0];
    const said = bash?.describe?.({ command: 'npm test' });
    await both.phase('working', said);

    expect(shown.some((text) => text.includes('die Testabdeckung auf dem Basis-Commit wird gemessen (`npm run coverage`)'))).toBe(true);
    expect(shown.some((text) => text.includes('es wird geprüft, dass der Regressionstest ohne die Korrektur fehlschlägt'))).toBe(true);
    expect(shown.some((text) => text.includes('`npm test` läuft'))).toBe(true);
    expect(shown.join('\n')).not.toMatch(/measuring coverage|checking the regression test|running `npm test`/);
    expect(lines.map((line) => line.replace(/^\[\s*\d+s\] /, ''))).toEqual([
      'verifying: measuring coverage on the base commit (`npm run coverage`)',
      'verifying: checking the regression test fails without the fix',
      'working: running `npm test`',
    ]);
  });

  it('refuses free text where a detail goes (a call site passing English words does not compile)', () => {
    const { reporter } = threadCard('de');
    // @ts-expect-error a detail is a typed value, never words
    const phrase: Parameters<RunReporter['phase']>[1] = 'reading the code';
    expect(reporter.statusText('working', { key: 'readingCode' })).toContain('der Code wird gelesen');
    expect(phrase).toBe('reading the code');
  });
});
