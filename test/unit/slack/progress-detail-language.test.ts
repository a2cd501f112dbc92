import { describe, expect, it } from 'vitest';
import { localizeDetail } from '../../../src/slack/progress-detail.js';
import { en } from '../../../src/slack/strings/en.js';
import { stringsFor } from '../../../src/slack/strings/index.js';

/** Details as the runners and tools say them (runners/, src/agent/workspace-tools.ts, runners/verify-change.ts). */
const DETAILS = [
  'cloning acme/shop',
  'cloning acme/shop (read-only)',
  'checking out wrench/fix-rounding-ab12',
  'checking out the head of #7 (read-only)',
  'reading pull request #7',
  'installing dependencies (`npm ci`)',
  'installing Node.js 22.3.0 (.nvmrc)',
  'refreshing the restored dependencies (`npm install`)',
  'dependencies of the same lock files already in place',
  'dependencies restored from an earlier install of the same lock files',
  'running the tests on the base commit',
  'reading the code',
  'reviewing #7',
  'reviewing the code',
  'investigating the code (read-only, no network)',
  'running `npm test`',
  'reading src/cart.js',
  'editing src/cart.js',
  'running the tests after the change',
  'running the tests after the revert',
  'fixing what the change broke',
  'checking the regression test fails without the fix',
  'measuring coverage on the base commit (`npx c8 npm test`)',
  'measuring coverage after the change',
  'downloading 1 attached file',
  'downloading 3 attached files',
  'reading the incident, its alerts and log entries',
  'pushing wrench/fix-rounding-ab12',
  'pushing `wrench/revert-ab12` and opening a draft pull request',
  'keeping the work so far on wrench/fix-rounding-ab12',
  'asked <@U0ALICE> a question',
  'nothing was pushed',
  'cancelled before it started',
  'waiting for the run already going in this thread',
  'waiting for a free slot (all workers are busy)',
  'waiting for other runs on this repository to finish',
  'waiting for your other runs to finish',
];

describe('the status card progress detail in the thread language', () => {
  it('reads every runner detail back into a catalogue phrase (the English phrase renders to the very same words)', () => {
    const english = { ...en, progress: { ...en.progress } };
    for (const detail of DETAILS) expect(localizeDetail(detail, english)).toBe(detail);
    expect(localizeDetail('running `npm test`', stringsFor('en'))).toBe('running `npm test`');
  });

  it('translates every one of them into German and Japanese', () => {
    for (const language of ['de', 'ja']) {
      for (const detail of DETAILS) expect(localizeDetail(detail, stringsFor(language)), `${language}: ${detail}`).not.toBe(detail);
    }
  });

  it('says the phase details in German, with the repository, the command and the branch as they are', () => {
    const de = stringsFor('de-AT');
    expect(localizeDetail('cloning acme/shop', de)).toBe('acme/shop wird geklont');
    expect(localizeDetail('installing dependencies (`npm ci`)', de)).toBe('Abhängigkeiten werden installiert (`npm ci`)');
    expect(localizeDetail('running `npm test`', de)).toBe('`npm test` läuft');
    expect(localizeDetail('reading the code', de)).toBe('der Code wird gelesen');
    expect(localizeDetail('running the tests after the change', de)).toBe('die Tests laufen nach der Änderung');
    expect(localizeDetail('pushing wrench/fix-rounding-ab12', de)).toBe('wrench/fix-rounding-ab12 wird gepusht');
    expect(localizeDetail('downloading 1 attached file', de)).toBe('1 angehängte Datei wird heruntergeladen');
  });

  it('says them in Japanese', () => {
    const ja = stringsFor('ja-JP');
    expect(localizeDetail('cloning acme/shop', ja)).toBe('acme/shop をクローン中');
    expect(localizeDetail('installing dependencies (`npm ci`)', ja)).toBe('依存関係をインストール中(`npm ci`)');
    expect(localizeDetail('running `npm test`', ja)).toBe('`npm test` を実行中');
    expect(localizeDetail('reading the code', ja)).toBe('コードを確認中');
    expect(localizeDetail('running the tests after the change', ja)).toBe('変更後のテストを実行中');
    expect(localizeDetail('asked <@U0ALICE> a question', ja)).toBe('<@U0ALICE> に質問しました');
  });

  it('keeps a detail no phrase knows, and says what Spanish lacks in English', () => {
    expect(localizeDetail('reading the changes on `main` in the 24 h before now', stringsFor('de'))).toBe(
      'reading the changes on `main` in the 24 h before now',
    );
    expect(localizeDetail('asking sentry (list_issues)', stringsFor('ja'))).toBe('asking sentry (list_issues)');
    expect(localizeDetail('cloning acme/shop', stringsFor('es'))).toBe('cloning acme/shop');
    expect(localizeDetail(undefined, stringsFor('de'))).toBeUndefined();
  });
});
