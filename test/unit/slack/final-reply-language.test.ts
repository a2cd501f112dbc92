import { describe, expect, it } from 'vitest';
import { renderResultMarkdown, renderResultPlain } from '../../../src/reporting/render-result-text.js';
import { reportEn } from '../../../src/reporting/report-strings.js';
import type { RunResult } from '../../../src/reporting/run-result.js';
import { streamedResult } from '../../../src/slack/run-plan.js';
import { attachmentsComment, renderRunResult } from '../../../src/slack/render-run-result.js';
import { finalState } from '../../../src/slack/slack-run-reporter.js';
import { en } from '../../../src/slack/strings/en.js';
import { stringsFor, THREAD_LANGUAGES } from '../../../src/slack/strings/index.js';
import { compareVerification } from '../../../src/verification/compare-verification.js';
import { renderVerification, setupEgressLine } from '../../../src/verification/render-verification.js';
import { verificationEn } from '../../../src/verification/verification-strings.js';
import { lintOutcome, testOutcome } from '../verification/outcomes.js';

/** A run whose checks contradict the agent: every kind of heading and fixed line of the report shows. */
const contradicted: RunResult = {
  status: 'pr_opened',
  repository: 'acme/shop',
  instruction: 'fix the rounding',
  pullRequest: { number: 7, url: 'https://github.example/acme/shop/pull/7', draft: true, title: 'Fix the rounding' },
  report: {
    summary: 'Fixed the rounding. All tests pass.',
    filesChanged: [
      { path: 'src/cart.js', change: 'round half up' },
      { path: 'src/tax.js', change: 'use the new rounding' },
    ],
    verification: 'npm test: all tests pass',
    openQuestions: ['Should tax round too?'],
  },
  verification: 'Checks run by Wrench on the base commit and after the change: **regressed**.',
  verificationVerdict: 'regressed',
  measuredTests: { command: 'npm test', failed: true, counts: '11 passed, 1 failed' },
  draftReason: 'Checks that passed before this change now fail.',
  filesChanged: ['src/cart.js'],
  diffStat: [{ path: 'src/cart.js', added: 4, removed: 2 }],
  sections: [{ title: 'Root cause', body: 'The total was truncated; all tests pass now.', claim: true }],
  usage: { inputTokens: 1200, outputTokens: 3000, cacheReadTokens: 40000, cacheWriteTokens: 1000 },
  costUsd: 0.42,
  steps: 12,
  durationMs: 190_000,
};

const slackText = (result: RunResult, language?: string) =>
  renderRunResult(result, { runPageUrl: 'https://wrench.example/runs/1' }, stringsFor(language))
    .flatMap((part) => [part.text, JSON.stringify(part.blocks)])
    .join('\n');

/** What Wrench measured or quotes, which no language changes. */
const FIGURES = [
  '`npm test`',
  '(11 passed, 1 failed)',
  '`src/cart.js` (+4 −2)',
  '+4 −2)',
  'PR #7',
  '12',
  '45.2k',
  '$0.42',
  '3m 10s',
  '> Fixed the rounding. All tests pass.',
  '> The total was truncated; all tests pass now.',
  'round half up',
  'Should tax round too?',
];

describe("the final reply speaks the thread's language; the figures and the agent's words stay as they are", () => {
  it('German: the headline, the measured outcome, the headings marking the agent’s claims and the usage line', () => {
    const text = slackText(contradicted, 'de');
    for (const phrase of [
      ':warning: Entwurfs-Pull-Request geöffnet: PR #7',
      '(1 Datei, +4 −2)',
      'Ergebnis: Die Änderung hat Prüfungen gebrochen, die vorher bestanden haben; `npm test` schlägt fehl (11 passed, 1 failed).',
      '*Zusammenfassung (Behauptung des Agenten, von Wrenchs Prüfungen widerlegt)*',
      'Von Wrench gemessen: `npm test` ist nach der Änderung fehlgeschlagen (11 passed, 1 failed).',
      '*Prüfung (von Wrench ausgeführt)*',
      '*Warum dies ein Entwurf ist*',
      '*Änderungen (laut committetem Diff)*',
      '`src/cart.js` (+4 −2): laut Agent: round half up',
      '*Vom Agenten behauptet, aber nicht geändert*',
      '`src/tax.js`: behauptet, aber nicht geändert (der Agent sagte: use the new rounding)',
      '*Root cause (Behauptung des Agenten, von Wrenchs Prüfungen widerlegt)*',
      '*Was der Agent nach eigener Aussage geprüft hat (von Wrenchs Prüfungen widerlegt)*',
      '*Offene Fragen (vom Agenten)*',
      '12 Schritte · 3m 10s · 45.2k Tokens · $0.42',
      'Alle Schritte dieses Laufs',
    ])
      expect(text).toContain(phrase);
    for (const figure of FIGURES) expect(text).toContain(figure);
    for (const english of ['Outcome:', 'Summary', 'the agent', 'Changes', 'Verification', 'Every step', ' steps', ' tokens'])
      expect(text).not.toContain(english);
  });

  it("names the repository's instruction files it read, in the thread's language, the paths as they are", () => {
    const read: RunResult = {
      ...contradicted,
      instructionFiles: [{ path: 'AGENTS.md' }, { path: 'CLAUDE.md', sameAs: 'AGENTS.md' }, { path: 'packages/api/AGENTS.md', truncated: true }],
    };
    expect(slackText(read, 'de')).toContain(
      'Gelesene Anweisungen des Repositorys für Agenten: `AGENTS.md`, `CLAUDE.md` (wie `AGENTS.md`), `packages/api/AGENTS.md` (gekürzt).',
    );
    expect(slackText(read, 'ja')).toContain(
      '読んだリポジトリのエージェント向け指示：`AGENTS.md`, `CLAUDE.md` （`AGENTS.md` と同じ）, `packages/api/AGENTS.md` （一部のみ）。',
    );
    expect(renderResultMarkdown(read, { forPullRequest: true })).toContain(
      'Instructions for agents read from the repository: `AGENTS.md`, `CLAUDE.md` (same as `AGENTS.md`), `packages/api/AGENTS.md` (truncated).',
    );
    expect(slackText(contradicted, 'de')).not.toContain('Anweisungen des Repositorys');
  });

  it('Japanese: the same report in Japanese, with the same figures', () => {
    const text = slackText(contradicted, 'ja');
    for (const phrase of [
      ':warning: ドラフトのプルリクエストを作成しました: ',
      '(1 ファイル, +4 −2)',
      '結果: 変更前は成功していたチェックが、この変更で失敗するようになりました。`npm test` は失敗しています (11 passed, 1 failed)。',
      '*概要(エージェントの主張。Wrench のチェック結果と矛盾)*',
      '*検証(Wrench が実行)*',
      '*変更内容(コミットされた差分より)*',
      '*未解決の質問(エージェントより)*',
      '12 ステップ · 3m 10s · 45.2k トークン · $0.42',
    ])
      expect(text).toContain(phrase);
    for (const figure of FIGURES) expect(text).toContain(figure);
    expect(text).not.toMatch(/Outcome:|Summary|Every step/);
  });

  it('the measured outcome line that passes, the answer without changes and the paused run in Japanese', () => {
    const passed: RunResult = { ...contradicted, verificationVerdict: 'improved', measuredTests: { command: 'npm test', failed: false, counts: '12 passed' } };
    expect(renderResultMarkdown(passed, { strings: stringsFor('ja').report }).split('\n')[0]).toBe('結果: 変更後、`npm test` は成功します (12 passed)。');
    const answered = slackText({ ...contradicted, status: 'answered', pullRequest: undefined, report: undefined, answer: 'It is in src/cart.js.' }, 'ja');
    expect(answered).toContain(':speech_balloon: ファイルは変更していないため、プルリクエストはありません。回答:');
    expect(answered).toContain('*概要*\nIt is in src/cart.js.');
    expect(slackText({ ...contradicted, status: 'waiting' }, 'ja')).toContain(':question: 上の質問に回答があるまで一時停止しています。');
  });

  it("the status card's closing detail, the files line and the streamed reply speak it too", () => {
    const de = stringsFor('de');
    expect(finalState({ ...contradicted, stopCode: 'time_limit' }, de).detail).toBe(
      'vorzeitig beendet · <https://github.example/acme/shop/pull/7|PR #7> (Entwurf)',
    );
    expect(attachmentsComment({ ...contradicted, attachments: [{ filename: 'report.md', kind: 'text', content: Buffer.from('') }] }, de)).toBe(
      ':paperclip: Dateien aus diesem Lauf: `report.md`',
    );
    const streamed = streamedResult(contradicted, 'https://wrench.example/runs/1', stringsFor('ja'));
    // The measured outcome comes first, then the pull request, as in English.
    expect(streamed.split('\n\n')[0]).toMatch(/^結果: /);
    expect(streamed.split('\n\n')[1]).toBe(
      'ドラフトのプルリクエストを作成しました: [PR #7: Fix the rounding](https://github.example/acme/shop/pull/7) (1 ファイル, +4 −2)',
    );
    expect(streamed).toContain('[この実行のすべての手順](https://wrench.example/runs/1)');
  });

  it('Spanish says the report, the stops and the failures in Spanish; English, the PR body and the terminal stay English', () => {
    const es = slackText(contradicted, 'es');
    expect(es).toContain('*Verificación (ejecutada por Wrench)*');
    expect(es).toContain('*Resumen (afirmación del agente, contradicha por las comprobaciones de Wrench)*');
    expect(es).toContain('12 pasos · 3m 10s · 45.2k tokens');
    expect(stringsFor('es').stop.stepLimit(3)).toBe('Se alcanzó el límite de pasos (3 pasos).');
    expect(stringsFor('es').failure.githubNotFound).toMatch(/^GitHub no encontró el repositorio o la rama \(HTTP 404\)\./);
    expect(Object.keys(stringsFor('es').report).sort()).toEqual(Object.keys(reportEn).sort());
    for (const language of THREAD_LANGUAGES) expect(Object.keys(stringsFor(language).report).sort()).toEqual(Object.keys(en.report).sort());
    // Unknown languages and none at all: the English reply, word for word as before.
    expect(slackText(contradicted, 'it')).toBe(slackText(contradicted));
    expect(slackText(contradicted)).toContain('Outcome: the change broke checks that passed before; `npm test` fails (11 passed, 1 failed).');
    expect(slackText(contradicted)).toContain(':warning: Opened draft PR #7');
    expect(renderResultMarkdown(contradicted, { forPullRequest: true })).toContain("## Summary (the agent's claim, contradicted by Wrench's checks)");
    expect(renderResultPlain(contradicted)).toContain('Changes (from the committed diff):\n- `src/cart.js` (+4 −2): the agent says: round half up');
    // The terminal speaks another language only when asked to.
    expect(renderResultPlain(contradicted, stringsFor('de').report)).toContain('Änderungen (laut committetem Diff):\n');
  });

  it('French says the report, the stops and the failures in French, the figures as they are', () => {
    const fr = slackText(contradicted, 'fr');
    expect(fr).toContain('*Vérification (exécutée par Wrench)*');
    expect(fr).toContain('*Résumé (affirmation de l’agent, contredite par les contrôles de Wrench)*');
    expect(fr).toContain('Résultat : la modification a cassé des contrôles qui passaient avant ; `npm test` échoue (11 passed, 1 failed).');
    expect(fr).toContain('12 étapes · 3m 10s · 45.2k tokens');
    expect(fr).not.toContain('Outcome:');
    expect(stringsFor('fr').stop.stepLimit(3)).toBe('La limite d’étapes (3 étapes) a été atteinte.');
    expect(stringsFor('fr').failure.githubNotFound).toMatch(/^GitHub n’a pas trouvé le dépôt ou la branche \(HTTP 404\)\./);
    expect(stringsFor('fr-CA').opened(true, 'PR #7', ' (1 fichier, +4 −2)')).toBe(':warning: Pull request en brouillon ouverte : PR #7 (1 fichier, +4 −2)');
  });

  it('Portuguese says the report, the stops and the failures in Portuguese, the figures as they are', () => {
    const pt = slackText(contradicted, 'pt-BR');
    expect(pt).toContain('*Verificação (executada pelo Wrench)*');
    expect(pt).toContain('*Resumo (afirmação do agente, contrariada pelas verificações do Wrench)*');
    expect(pt).toContain('Resultado: a alteração quebrou verificações que passavam antes; `npm test` falha (11 passed, 1 failed).');
    expect(pt).toContain('12 etapas · 3m 10s · 45.2k tokens');
    expect(pt).not.toContain('Outcome:');
    expect(stringsFor('pt').stop.stepLimit(3)).toBe('O limite de etapas (3 etapas) foi atingido.');
    expect(stringsFor('pt-PT').opened(true, 'PR #7', ' (1 arquivo, +4 −2)')).toBe(':warning: Pull request em rascunho aberto: PR #7 (1 arquivo, +4 −2)');
  });

  it('Chinese says the report, the stops and the failures in Simplified Chinese, the figures as they are', () => {
    const zh = slackText(contradicted, 'zh');
    expect(zh).toContain('*验证（由 Wrench 运行）*');
    expect(zh).toContain('*摘要（智能体的说法，与 Wrench 的检查结果矛盾）*');
    expect(zh).toContain('结果：这次改动让之前通过的检查失败了；`npm test` 失败 (11 passed, 1 failed)。');
    expect(zh).toContain('12 步 · 3m 10s · 45.2k token');
    expect(zh).not.toContain('Outcome:');
    expect(stringsFor('zh').stop.stepLimit(3)).toBe('已达到步数上限（3 步）。');
    expect(stringsFor('zh').failure.githubNotFound).toMatch(/^GitHub 找不到该仓库或分支（HTTP 404）。/);
    expect(stringsFor('zh-CN').opened(true, 'PR #7', ' (1 file, +4 −2)')).toBe(':warning: 已创建草稿 PR #7 (1 file, +4 −2)');
    expect(stringsFor('zh-CN').opened(false, 'PR #7', '')).toBe(':white_check_mark: 已创建 PR #7');
  });

  it("Wrench's checks in German and Japanese: its words translated, the commands, test names, counts and output as they are", () => {
    const commands = { test: 'npm test', lint: 'npm run lint', sources: [] };
    const before = { test: testOutcome({ passed: 2, failed: 0 }), lint: lintOutcome(true) };
    const after = { test: testOutcome({ passed: 1, failed: 1, failedTests: ['formats 1024 as 1 KiB'] }), lint: lintOutcome(false) };
    const render = (language?: string) =>
      renderVerification(commands, compareVerification(before, after), before, after, undefined, undefined, stringsFor(language).verification);
    const de = render('de');
    expect(de.split('\n')[0]).toBe('Von Wrench auf dem Basis-Commit und nach der Änderung ausgeführte Prüfungen: **verschlechtert**.');
    expect(de).toContain('- `npm test`: vorher 2 passed, 0 failed → nachher 1 passed, 1 failed.');
    expect(de).toContain('- Neu fehlgeschlagen: `formats 1024 as 1 KiB`.');
    expect(de).toContain('- `npm run lint`: vorher bestanden → nachher fehlgeschlagen.');
    expect(de).toContain('Ausgabe von `npm test` (Ende):\n```\nnot ok 1 - formats 1024 as 1 KiB\n# fail 1\n```');
    const ja = render('ja');
    expect(ja.split('\n')[0]).toBe('Wrench がベースコミットと変更後に実行したチェック: **悪化**。');
    expect(ja).toContain('- `npm test`: 変更前 2 passed, 0 failed → 変更後 1 passed, 1 failed.');
    expect(ja).toContain('- 新たに失敗: `formats 1024 as 1 KiB`。');
    expect(ja).toContain('`npm test` の出力(末尾):\n```\nnot ok 1 - formats 1024 as 1 KiB');
    const es = render('es');
    expect(es.split('\n')[0]).toBe('Comprobaciones ejecutadas por Wrench en el commit base y después del cambio: **peor**.');
    expect(es).toContain('- `npm test`: antes 2 passed, 0 failed → después 1 passed, 1 failed.');
    expect(es).toContain('- Fallos nuevos: `formats 1024 as 1 KiB`.');
    expect(es).toContain('Salida de `npm test` (final):\n```\nnot ok 1 - formats 1024 as 1 KiB');
    const fr = render('fr');
    expect(fr.split('\n')[0]).toBe('Contrôles exécutés par Wrench sur le commit de base et après la modification : **régression**.');
    expect(fr).toContain('- `npm test`: avant 2 passed, 0 failed → après 1 passed, 1 failed.');
    expect(fr).toContain('- Nouveaux échecs : `formats 1024 as 1 KiB`.');
    expect(fr).toContain('- `npm run lint`: succès avant → échec après.');
    expect(fr).toContain('Sortie de `npm test` (fin) :\n```\nnot ok 1 - formats 1024 as 1 KiB');
    const zh = render('zh');
    expect(zh.split('\n')[0]).toBe('Wrench 在基准提交上和改动后运行的检查：**回归**。');
    expect(zh).toContain('- `npm test`: 改动前 2 passed, 0 failed → 改动后 1 passed, 1 failed.');
    expect(zh).toContain('- 新增失败：`formats 1024 as 1 KiB`。');
    expect(zh).toContain('- `npm run lint`: 改动前通过 → 改动后失败.');
    expect(zh).toContain('`npm test` 的输出（末尾）：\n```\nnot ok 1 - formats 1024 as 1 KiB');
    // English is what it always was.
    expect(render()).toBe(renderVerification(commands, compareVerification(before, after), before, after));
    for (const language of ['ja', 'es', 'fr', 'pt', 'zh'])
      expect(Object.keys(stringsFor(language).verification).sort()).toEqual(Object.keys(verificationEn).sort());
    // A setup that failed, in Japanese.
    const setup = { ...lintOutcome(false), command: 'npm ci', outputTail: 'ERR! 404' };
    expect(renderVerification(commands, compareVerification(undefined, after), undefined, after, setup, undefined, stringsFor('ja').verification)).toMatch(
      /^\*\*依存関係をインストールできませんでした\*\*: `npm ci` が終了コード 1 で終了しました。/,
    );
  });

  it('says in German and Japanese which hosts the egress policy refused a failed setup, the hosts and setting as they are', () => {
    const commands = { test: 'npm test', sources: [] };
    const after = { test: testOutcome({ passed: 1, failed: 0 }) };
    const setup = {
      ...lintOutcome(false),
      command: 'npm ci',
      outputTail: 'ERR! network',
      egressRefused: [
        { host: 'evil.example', port: 443, reason: 'not-allowed' as const, attempts: 2 },
        { host: 'localhost', port: 6379, reason: 'non-public-address' as const, address: '127.0.0.1', attempts: 1 },
      ],
    };
    const render = (language?: string) =>
      renderVerification(commands, compareVerification(undefined, after), undefined, after, setup, undefined, stringsFor(language).verification);
    expect(render('de')).toContain(
      'Die Installation konnte dieses Ziel nicht erreichen: evil.example:443: nicht in der Liste erlaubter Ziele (sandbox.egress.allow) (und 1 weitere abgewiesen: localhost:6379).',
    );
    expect(render('ja')).toContain(
      'セットアップは次の接続先に到達できませんでした: evil.example:443: 送信先の許可リスト(sandbox.egress.allow)にありません(ほかに 1 件拒否: localhost:6379)。',
    );
    expect(render()).toContain(
      'Setup could not reach evil.example:443: not in the egress allow list (sandbox.egress.allow) (and 1 more refused: localhost:6379).',
    );
    expect(render('de')).not.toContain('Setup could not reach');
    expect(render('ja')).not.toContain('Setup could not reach');
    const metadata = [{ host: 'metadata.internal', port: 80, reason: 'non-public-address' as const, address: '169.254.169.254' }];
    expect(setupEgressLine(metadata, stringsFor('de').verification)).toBe(
      'Die Installation konnte dieses Ziel nicht erreichen: metadata.internal:80: wird zu 169.254.169.254 aufgelöst, der Metadaten-Adresse der Cloud.',
    );
    expect(setupEgressLine(metadata)).toBe('Setup could not reach metadata.internal:80: resolves to 169.254.169.254, the cloud metadata address.');
    expect(setupEgressLine([{ ...metadata[0]!, address: '10.0.0.2' }], stringsFor('ja').verification)).toBe(
      'セットアップは次の接続先に到達できませんでした: metadata.internal:80: 公開アドレスではない 10.0.0.2(ループバック、プライベートまたはリンクローカル)に解決されます。',
    );
  });

  it("the thread's reply shows the checks in its language; the pull request body keeps them in English", () => {
    const result = {
      ...contradicted,
      verification: 'Checks run by Wrench after the change: **failed**.',
      threadVerification: 'Wrench が変更後に実行したチェック: **失敗**。',
    };
    expect(slackText(result, 'ja')).toContain('*検証(Wrench が実行)*\nWrench が変更後に実行したチェック: *失敗*。');
    expect(streamedResult(result, undefined, stringsFor('ja'))).toContain('Wrench が変更後に実行したチェック: **失敗**。');
    expect(renderResultMarkdown(result, { forPullRequest: true })).toContain(
      '## Verification (run by Wrench)\nChecks run by Wrench after the change: **failed**.',
    );
  });

  it("an agent that claims success in German or Japanese is marked as contradicted when Wrench's tests fail", () => {
    const failing: RunResult = {
      ...contradicted,
      verificationVerdict: 'unchanged',
      measuredTests: { command: 'npm test', failed: true, counts: '11 passed, 1 failed' },
      sections: undefined,
    };
    const ja = renderResultMarkdown(
      { ...failing, report: { ...failing.report!, summary: '合計の丸めを修正しました。テストはすべて通りました。', verification: '' } },
      { strings: stringsFor('ja').report },
    );
    expect(ja).toContain(
      '**概要(エージェントの主張。Wrench のチェック結果と矛盾)**\n> 合計の丸めを修正しました。テストはすべて通りました。\n\nWrench の計測: 変更後、`npm test` は失敗しました (11 passed, 1 failed)。',
    );
    const de = renderResultMarkdown({ ...failing, report: { ...failing.report!, summary: 'Rundung korrigiert, alle Tests bestanden.', verification: '' } });
    expect(de).toContain("**Summary (the agent's claim, contradicted by Wrench's checks)**\n> Rundung korrigiert, alle Tests bestanden.");
    // Words that claim nothing stay the agent's account.
    const plain = renderResultMarkdown({ ...failing, report: { ...failing.report!, summary: 'Die Rundung in src/cart.js geändert.', verification: '' } });
    expect(plain).toContain("**Summary (the agent's account)**");
    // In French too: a claim of success is contradicted, a sentence that claims nothing stays the agent's account.
    const fr = (summary: string) =>
      renderResultMarkdown({ ...failing, report: { ...failing.report!, summary, verification: '' } }, { strings: stringsFor('fr').report });
    expect(fr('Arrondi corrigé, tous les tests passent.')).toContain(
      '**Résumé (affirmation de l’agent, contredite par les contrôles de Wrench)**\n> Arrondi corrigé, tous les tests passent.\n\nMesuré par Wrench : `npm test` a échoué après la modification (11 passed, 1 failed).',
    );
    expect(fr('La suite de tests réussit.')).toContain('**Résumé (affirmation de l’agent');
    expect(fr('J’ai modifié l’arrondi dans src/cart.js.')).toContain('**Résumé (selon l’agent)**');
    // And in Portuguese.
    const pt = (summary: string) =>
      renderResultMarkdown({ ...failing, report: { ...failing.report!, summary, verification: '' } }, { strings: stringsFor('pt').report });
    expect(pt('Arredondamento corrigido, todos os testes passam.')).toContain(
      '**Resumo (afirmação do agente, contrariada pelas verificações do Wrench)**\n> Arredondamento corrigido, todos os testes passam.\n\nMedido pelo Wrench: `npm test` falhou depois da alteração (11 passed, 1 failed).',
    );
    expect(pt('A suíte de testes passou.')).toContain('**Resumo (afirmação do agente');
    expect(pt('O bug de arredondamento foi resolvido.')).toContain('**Resumo (afirmação do agente');
    expect(pt('Alterei o arredondamento em src/cart.js.')).toContain('**Resumo (segundo o agente)**');
    // And in Chinese: "通过" as "by means of" claims nothing.
    const zh = (summary: string) =>
      renderResultMarkdown({ ...failing, report: { ...failing.report!, summary, verification: '' } }, { strings: stringsFor('zh').report });
    expect(zh('已修复舍入问题，所有测试都通过了。')).toContain(
      '**摘要（智能体的说法，与 Wrench 的检查结果矛盾）**\n> 已修复舍入问题，所有测试都通过了。\n\nWrench 实测：改动后 `npm test` 失败 (11 passed, 1 failed)。',
    );
    expect(zh('测试全部通过')).toContain('**摘要（智能体的说法，与 Wrench 的检查结果矛盾）**');
    expect(zh('通过修改 src/cart.js 中的舍入来调整总价。')).toContain('**摘要（智能体的说法）**');
  });
});
