import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../../src/reporting/run-result.js';
import { markdownChunks, RunPlan, STOP_HINT, streamedResult } from '../../../src/slack/run-plan.js';
import { stringsFor } from '../../../src/slack/strings/index.js';

const base: RunResult = { status: 'answered', repository: 'acme/web', instruction: 'explain', filesChanged: [], durationMs: 1000, answer: 'It works.' };

describe('run plan', () => {
  it('cuts a long reply into markdown_text chunks within Slack 12,000-character limit, at line ends, losing nothing', () => {
    const text = Array.from({ length: 400 }, (_, i) => `line ${i} ${'x'.repeat(70)}`).join('\n');
    const chunks = markdownChunks(text);
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) expect(chunk.type === 'markdown_text' && chunk.text.length <= 12_000).toBe(true);
    expect(chunks.map((c) => (c.type === 'markdown_text' ? c.text : '')).join('')).toBe(text);
    expect(chunks.slice(0, -1).every((c) => c.type === 'markdown_text' && c.text.endsWith('\n'))).toBe(true);
  });

  it("escapes what could form mentions or links in the model's words, keeps quotes, and caps the reply", () => {
    const reply = streamedResult({ ...base, answer: 'Done <!channel> <@U123> <https://evil.example|click> & more' });
    expect(reply).not.toMatch(/<[!@h]/);
    expect(reply).toContain('&lt;!channel>');
    expect(reply).toContain('&amp; more');
    const long = streamedResult({ ...base, answer: 'y'.repeat(50_000) }, 'https://wrench.example.com/runs/1');
    expect(long.length).toBeLessThanOrEqual(36_000);
    expect(long).toContain('The rest is on the run page.');
  });

  it('says that a run changed nothing, as the card reply does, in the thread language', () => {
    expect(streamedResult(base)).toMatch(/^No files changed, so no pull request\. My answer:\n\n[\s\S]*It works\./);
    expect(streamedResult({ ...base, status: 'stopped', answer: undefined })).toContain('Stopped early without changes.');
    expect(streamedResult(base, undefined, stringsFor('de'))).not.toContain('No files changed');
  });

  it('shows only what changed since the last chunks taken', () => {
    const plan = new RunPlan('acme/web');
    plan.advance('preparing');
    expect(plan.takeChanges().map((c) => c.type)).toEqual(['plan_update', 'task_update', 'task_update']);
    plan.advance('working', { key: 'readingCode' });
    expect(plan.takeChanges()).toEqual([
      { type: 'task_update', id: 'preparing', title: 'Prepare the workspace', status: 'complete' },
      { type: 'task_update', id: 'working', title: 'Work on the change', status: 'in_progress', output: 'reading the code' },
    ]);
    expect(plan.takeChanges()).toEqual([]);
    plan.advance('failed', { text: 'the sandbox could not start' });
    expect(plan.takeChanges()).toEqual([
      { type: 'plan_update', title: 'Failed: acme/web' },
      { type: 'task_update', id: 'working', title: 'Work on the change', status: 'error', output: 'the sandbox could not start' },
    ]);
    expect(plan.fallbackText()).toBe(
      '*Failed: acme/web*\n:white_check_mark: Read the request\n:white_check_mark: Prepare the workspace\n:x: Work on the change · the sandbox could not start',
    );
  });

  it("shows the agent's own plan as its account: by position, done as complete, dropped or unfinished steps not under way at the end", () => {
    const plan = new RunPlan('acme/web');
    plan.advance('working');
    plan.takeChanges();
    plan.agentPlan([
      { step: 'Find the parser', status: 'done' },
      { step: 'Fix the off-by-one', status: 'in_progress' },
      { step: 'Add a test', status: 'pending' },
    ]);
    expect(plan.takeChanges()).toEqual([
      { type: 'task_update', id: 'agent-1', title: "Find the parser (the agent's plan)", status: 'complete' },
      { type: 'task_update', id: 'agent-2', title: "Fix the off-by-one (the agent's plan)", status: 'in_progress' },
      { type: 'task_update', id: 'agent-3', title: "Add a test (the agent's plan)", status: 'pending' },
    ]);
    plan.agentPlan([
      { step: 'Find the parser', status: 'done' },
      { step: 'Fix the off-by-one', status: 'in_progress' },
    ]);
    expect(plan.takeChanges()).toEqual([
      { type: 'task_update', id: 'agent-3', title: "Add a test (the agent's plan)", status: 'pending', output: "dropped from the agent's plan" },
    ]);
    plan.advance('done');
    expect(plan.takeChanges()).toContainEqual({
      type: 'task_update',
      id: 'agent-2',
      title: "Fix the off-by-one (the agent's plan)",
      status: 'pending',
      output: 'not marked done by the agent',
    });
    expect(plan.fallbackText()).toContain(":white_check_mark: Find the parser (the agent's plan)");
  });

  it("shows none of the agent's steps as under way in the message of a run paused on its question", () => {
    const plan = new RunPlan('acme/web');
    plan.advance('working');
    plan.agentPlan([{ step: 'Ask about the colour', status: 'in_progress' }]);
    plan.advance('waiting');
    expect(plan.takeChanges()).toContainEqual({
      type: 'task_update',
      id: 'agent-1',
      title: "Ask about the colour (the agent's plan)",
      status: 'pending',
      output: 'not marked done by the agent',
    });
  });

  it('says how to stop the run in the title while it goes on, and not once it is over', () => {
    const plan = new RunPlan('acme/web', undefined, 'Bug fix · simple: the parser');
    plan.advance('queued', { text: 'position 2 in the queue' });
    expect(plan.takeChanges()).toEqual([
      { type: 'plan_update', title: 'Queued: position 2 in the queue · to stop it, mention me with "stop"' },
      { type: 'task_update', id: 'reading', title: 'Read the request', status: 'complete', output: 'Bug fix · simple: the parser' },
    ]);
    plan.advance('working');
    expect(plan.takeChanges()[0]).toEqual({ type: 'plan_update', title: 'Working on acme/web · to stop it, mention me with "stop"' });
    plan.advance('cancelled');
    expect(plan.takeChanges()[0]).toEqual({ type: 'plan_update', title: 'Cancelled: acme/web' });
  });
});

describe("a streamed run's plan in the thread's language", () => {
  const run = (language: string) => {
    const plan = new RunPlan('acme/web', 'https://wrench.example/runs/1', undefined, stringsFor(language));
    plan.advance('preparing', { key: 'cloning', repository: 'acme/web' });
    plan.advance('working', { key: 'readingCode' });
    plan.advance('working', { key: 'editing', path: 'src/a.js' });
    plan.advance('working', { key: 'running', command: 'npm test' });
    plan.agentPlan([{ step: 'Fix the parser', status: 'in_progress' }]);
    return plan;
  };

  it('says its title, how to stop it, the stages, the agent steps and the details in German', () => {
    const plan = run('de-DE');
    expect(plan.fallbackText()).toBe(
      [
        '*Arbeit an acme/web · zum Abbrechen erwähne mich mit „stop“*',
        ':white_check_mark: Anfrage lesen',
        ':white_check_mark: Arbeitsbereich vorbereiten · acme/web wird geklont',
        ':hourglass_flowing_sand: An der Änderung arbeiten · der Code wird gelesen',
        ':hourglass_flowing_sand: Dateien bearbeiten (der Agent) · 1 Datei: src/a.js',
        ':hourglass_flowing_sand: Tests ausführen (der Agent) · 1 Lauf, zuletzt: npm test',
        ':hourglass_flowing_sand: Fix the parser (Plan des Agenten)',
      ].join('\n'),
    );
    plan.advance('cancelled');
    expect(plan.fallbackText()).toMatch(/^\*Abgebrochen: acme\/web\*\n/);
    expect(plan.fallbackText()).toContain(':x: An der Änderung arbeiten · Abgebrochen');
    expect(plan.fallbackText()).toContain('Fix the parser (Plan des Agenten) · vom Agenten nicht als erledigt markiert');
    expect(JSON.stringify(plan.block())).toContain('"text":"Alle Schritte auf der Seite des Laufs"');
  });

  it('says them in Japanese, and a queued run what it waits for', () => {
    const plan = run('ja');
    const text = plan.fallbackText();
    expect(text.split('\n')[0]).toBe('*acme/web で作業中 · 停止するには「stop」とメンションしてください*');
    expect(text).toContain(':white_check_mark: 作業環境を準備する · acme/web をクローン中');
    expect(text).toContain(':hourglass_flowing_sand: 変更に取り組む · コードを確認中');
    expect(text).toContain('テストを実行する(エージェント) · 1 回実行、最新: npm test');
    expect(text).toContain('Fix the parser(エージェントの計画)');
    const queued = new RunPlan('acme/web', undefined, undefined, stringsFor('ja'));
    queued.advance('queued', { key: 'waitingGlobal' });
    expect(queued.takeChanges()[0]).toEqual({
      type: 'plan_update',
      title: '順番待ち: 空きワーカー待ち(すべてのワーカーが使用中) · 停止するには「stop」とメンションしてください',
    });
    expect(streamedResult({ ...base, answer: 'y'.repeat(50_000) }, undefined, stringsFor('ja'))).toContain('続きは実行ページにあります。');
  });

  it('stays English for English and for a language without a catalogue', () => {
    for (const language of ['en', 'it']) {
      const text = run(language).fallbackText();
      expect(text.split('\n')[0]).toBe(`*Working on acme/web · ${STOP_HINT}*`);
      expect(text).toContain(':white_check_mark: Prepare the workspace · cloning acme/web');
      expect(text).toContain("Fix the parser (the agent's plan)");
      expect(text).toContain('1 run, the last: npm test');
    }
  });

  it('says them in Spanish', () => {
    const text = run('es').fallbackText();
    expect(text.split('\n')[0]).toBe('*Trabajando en acme/web · para cancelar, mencióname con «stop»*');
    expect(text).toContain(':white_check_mark: Preparar el espacio de trabajo · clonando acme/web');
    expect(text).toContain('Fix the parser (plan del agente)');
    expect(text).toContain('Ejecutar pruebas (el agente) · 1 ejecución, la última: npm test');
  });

  it('says them in French', () => {
    const text = run('fr').fallbackText();
    expect(text.split('\n')[0]).toBe('*Travail en cours sur acme/web · pour l’arrêter, mentionnez-moi avec « stop »*');
    expect(text).toContain(':white_check_mark: Préparer l’espace de travail · clonage du dépôt acme/web');
    expect(text).toContain('Fix the parser (plan de l’agent)');
    expect(text).toContain('Lancer les tests (l’agent) · 1 exécution, la dernière : npm test');
  });

  it('says them in Portuguese, the "stop" people type as it is', () => {
    const text = run('pt-BR').fallbackText();
    expect(text.split('\n')[0]).toBe('*Trabalhando em acme/web · para parar, mencione-me com "stop"*');
    expect(text).toContain(':white_check_mark: Preparar o ambiente de trabalho · clonando acme/web');
    expect(text).toContain('Fix the parser (plano do agente)');
    expect(text).toContain('Rodar os testes (o agente) · 1 execução, a última: npm test');
  });

  it('says them in Simplified Chinese, "stop" as people type it', () => {
    const text = run('zh').fallbackText();
    expect(text.split('\n')[0]).toBe('*正在处理 acme/web · 如需停止，请提及我并说“stop”*');
    expect(text).toContain(':white_check_mark: 准备工作区 · 正在克隆 acme/web');
    expect(text).toContain('Fix the parser（智能体的计划）');
    expect(text).toContain('运行测试（智能体） · 运行 1 次，最近一次：npm test');
  });
});
