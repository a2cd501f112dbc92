import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorResponse, textResponse, toolUseResponse, type ScriptItem } from '../fakes/anthropic-fake.js';
import { appMentionEnvelope, blockActionsPayload, reactionAddedEnvelope } from '../fakes/slack-fake.js';
import { runWrench } from '../helpers/wrench-process.js';
import { ANTHROPIC_KEY, createE2eWorld, SIGNING_SECRET, type E2eWorld } from './e2e-world.js';
import { bashStep, createFileStep, finishStep, scriptByRun } from './scripted-runs.js';

const CONFIG = `
channels:
  C0READ: { repo: acme/shop }
sandbox: { mode: bwrap }
# The card surface: the model reader's reading shown on the status card, in the requester's language.
slack: { streamRuns: false }
`;
const READER_MODEL = 'claude-haiku-5-5';

/** A reading as the fast model answers it: the contract's JSON in a text block (structured output). */
const reading = (overrides: Record<string, unknown>) =>
  textResponse(
    JSON.stringify({
      category: 'bug-fixing',
      complexity: 'simple',
      verdict: 'well-formed',
      missing: [],
      summary: 'Fix the crash.',
      questions: [],
      elements: {},
      ...overrides,
    }),
  );

describe('the fast model reads each instruction; the rules decide when it cannot', () => {
  let world: E2eWorld;

  beforeAll(async () => {
    world = await createE2eWorld(CONFIG);
    await world.github.createRepo('acme', 'shop', { 'src/cart.js': 'export const total = (items) => items.reduce((s, i) => s + i.price, 0);\n' });
    await world.start({ WRENCH_READER_MODEL: READER_MODEL, WRENCH_READER_TIMEOUT_MS: '1500' });
  });

  afterAll(async () => {
    await world?.stop();
  });

  const mention = async (text: string) => {
    const envelope = appMentionEnvelope({ channel: 'C0READ', user: 'U0ALICE', text: `<@U0BOT> ${text}` });
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    return (envelope.event as { ts: string }).ts;
  };
  const readerRequests = () => world.anthropic.requests.filter((r) => (r.body as { model?: string }).model === READER_MODEL);
  const agentRun = (marker: string, file: string) => scriptByRun({ [marker]: [createFileStep(file, '// done\n'), finishStep(`Handled ${marker}.`)] }).items;
  /** The reader's reply first, then the agent's steps: requests arrive in that order for one mention. */
  const script = (readerReply: ScriptItem, agent: ScriptItem[]) => world.anthropic.setScript([readerReply, ...agent]);

  it('a reading of ill-formed makes Wrench ask exactly what the reading names, though the rules would have started', async () => {
    script(
      reading({
        verdict: 'ill-formed',
        missing: ['observed-problem', 'success-criteria'],
        questions: [
          { element: 'observed-problem', question: 'What does the checkout show when the cart is empty: an error, a blank page?' },
          { element: 'success-criteria', question: 'What should an empty cart show instead?' },
        ],
      }),
      [],
    );
    const ts = await mention('fix the crash in src/cart.js: TypeError when the cart is empty');
    const card = await world.slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts && /Before I start/.test(String(c.args.text)),
      30_000,
    );
    expect(String(card.args.text)).toContain('1. What does the checkout show when the cart is empty: an error, a blank page?');
    expect(String(card.args.text)).toContain('2. What should an empty cart show instead?');
    const request = readerRequests().at(-1)!;
    const body = request.body as { output_config?: { format?: { type?: string } }; messages: unknown[] };
    expect(body.output_config?.format?.type).toBe('json_schema');
    expect(JSON.stringify(body.messages)).toContain('TypeError when the cart is empty');
    // Nothing was queued: the only model request was the reading.
    expect(world.anthropic.requests.filter((r) => r.body && JSON.stringify(r.body).includes('src/cart.js'))).toHaveLength(1);
  });

  it('a Spanish instruction gets its card and its questions in Spanish from the reading', async () => {
    script(
      reading({
        verdict: 'ill-formed',
        missing: ['location'],
        summary: 'Corregir el total del carrito.',
        questions: [{ element: 'location', question: '¿En qué archivo o pantalla se calcula el total del carrito?' }],
      }),
      [],
    );
    const ts = await mention('Corregir el total del carrito, sale mal para los usuarios nuevos.');
    const card = await world.slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts && /Before I start/.test(String(c.args.text)),
      30_000,
    );
    expect(String(card.args.text)).toContain('¿En qué archivo o pantalla se calcula el total del carrito?');

    script(reading({ summary: 'Corregir el total del carrito en src/cart.js cuando hay descuentos.' }), agentRun('descuentos', 'src/discount.js'));
    const second = await mention('Corregir el total en src/cart.js cuando hay descuentos: el total sale negativo.');
    const status = await world.slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.args.thread_ts === second && /^Bug fix task on acme\/shop/.test(String(c.args.text)),
      30_000,
    );
    expect(JSON.stringify(status.args.blocks)).toContain('Corregir el total del carrito en src/cart.js cuando hay descuentos.');
    await world.slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === second && /Opened PR #/.test(String(c.args.text)), 150_000);
  });

  it("the whole thread speaks the requester's language: German cards, a Japanese status card and question, the Slack locale when the reading tells nothing", async () => {
    // German, as the reader read it: the card around the reader's questions is German too.
    script(
      reading({
        verdict: 'ill-formed',
        missing: ['location'],
        language: 'de',
        summary: 'Die Summe im Warenkorb korrigieren.',
        questions: [{ element: 'location', question: 'In welcher Datei wird die Summe berechnet?' }],
      }),
      [],
    );
    const german = await mention('Die Summe im Warenkorb ist falsch, bitte korrigieren.');
    const card = await world.slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === german, 30_000);
    expect(String(card.args.text)).toBe(
      'Bevor ich anfange, brauche ich noch etwas mehr, damit ich nicht raten muss:\n1. In welcher Datei wird die Summe berechnet?\nAntworte hier im Thread oder drücke *Details ergänzen*.',
    );
    expect(JSON.stringify(card.args.blocks)).toContain('"text":"Trotzdem starten"');

    // Japanese: the status card, then the agent's question (posted by the worker) with its buttons.
    const ask = toolUseResponse([
      { id: 'toolu_ask_ja', name: 'ask_requester', input: { question: 'どのAPIバージョンを使いますか?', suggestedAnswers: ['v1', 'v2'] } },
    ]);
    script(
      reading({ language: 'ja', summary: 'カートの合計を修正する。' }),
      scriptByRun({ 'ja-marker': [ask, createFileStep('src/ja.js', '// v2\n'), finishStep('Handled ja-marker.')] }).items,
    );
    const japanese = await mention('ja-marker: src/cart.js のカートの合計を修正してください');
    const status = await world.slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.args.thread_ts === japanese && /^acme\/shop の/.test(String(c.args.text)),
      30_000,
    );
    expect(String(status.args.text)).toMatch(/^acme\/shop のバグ修正タスク: :hourglass_flowing_sand: 順番待ち/);
    expect(JSON.stringify(status.args.blocks)).toContain('"text":"キャンセル"');
    const question = await world.slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.args.thread_ts === japanese && /続ける前に質問があります/.test(String(c.args.text)),
      90_000,
    );
    expect(String(question.args.text)).toBe('<@U0ALICE> 続ける前に質問があります:\n> どのAPIバージョンを使いますか?');
    // The status card says what the run does in Japanese too: here, that it asked the requester.
    await world.slack.waitFor(
      (c) =>
        c.method === 'chat.update' &&
        /^acme\/shop の/.test(String(c.args.text)) &&
        String(c.args.text).includes(':question: 回答待ち · <@U0ALICE> に質問しました'),
      30_000,
    );
    expect(JSON.stringify(question.args.blocks)).toContain('"text":"おまかせ"');
    // Answered with a button: the settled question says so in Japanese, and the run goes on to its pull request.
    const v2 = (question.args.blocks as Array<{ type: string; elements?: Array<{ action_id?: string; value?: string; text?: { text?: string } }> }>)
      .flatMap((b) => b.elements ?? [])
      .find((e) => e.text?.text === 'v2');
    const questionTs = world.slack.messages('C0READ', japanese).find((m) => m.text.includes('どのAPIバージョンを使いますか?'))?.ts ?? '';
    await world.slack.deliverInteraction(
      world.eventsUrl(),
      SIGNING_SECRET,
      blockActionsPayload({
        user: 'U0ALICE',
        channel: 'C0READ',
        message_ts: questionTs,
        thread_ts: japanese,
        action_id: v2?.action_id ?? '',
        value: v2?.value ?? '',
      }),
    );
    await world.slack.waitFor(
      (c) => c.method === 'chat.update' && /次の質問をしました/.test(String(c.args.text)) && /の回答: v2/.test(String(c.args.text)),
      30_000,
    );
    // The final reply speaks Japanese too: its headline, the headings that mark the agent's account, the usage line.
    const jaReply = await world.slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.args.thread_ts === japanese && /プルリクエストを作成しました: PR #/.test(String(c.args.text)),
      150_000,
    );
    const jaText = String(jaReply.args.text);
    const jaPull = world.github.pulls('acme', 'shop').find((p) => p.body?.includes('ja-marker'));
    expect(jaText).toMatch(new RegExp(`^:white_check_mark: プルリクエストを作成しました: PR #${jaPull?.number}: .* \\(1 ファイル, \\+1 −0\\)\n`));
    expect(jaText).toContain('*概要(エージェントの説明)*\n\n> Handled ja-marker.');
    // Wrench's own checks in Japanese too; the pull request body says them in English.
    expect(jaText).toContain('*検証(Wrench が実行)*\nテストコマンドが見つかりませんでした(wrench.config.yml の `verification:` で指定できます)。');
    expect(jaText).toContain('*変更内容(コミットされた差分より)*');
    expect(jaText).not.toMatch(/Opened|Summary|Changes \(|the agent/);
    expect(JSON.stringify(jaReply.args.blocks)).toMatch(/\d+ ステップ · \d+s · [\d.]+k? トークン · \$\d+\.\d\d(?:"| · )/);
    // The measured figures are the same as in the pull request's body, which stays English.
    const changed = /`src\/ja\.js` \(\+\d+ −\d+\)/.exec(jaPull?.body ?? '')?.[0];
    expect(jaPull?.body).toContain('## Changes (from the committed diff)\n- `src/ja.js` (+1 −0)');
    expect(jaPull?.body).toContain('## Verification (run by Wrench)\nNo test command was found');
    expect(changed && jaText.includes(changed)).toBe(true);
    // The status card's progress line speaks Japanese to the end.
    await world.slack.waitFor(
      (c) => c.method === 'chat.update' && /^acme\/shop の/.test(String(c.args.text)) && /完了 · .* で終了/.test(String(c.args.text)),
      30_000,
    );

    // The reader answers nothing usable: the rules read it, and the thread speaks the requester's Slack locale.
    world.slack.addUser({ id: 'U0HANS', name: 'hans', locale: 'de-DE' });
    script(textResponse('not a reading'), agentRun('locale-marker', 'src/locale.js'));
    const envelope = appMentionEnvelope({
      channel: 'C0READ',
      user: 'U0HANS',
      text: '<@U0BOT> locale-marker: add src/locale.js exporting `ok` next to src/cart.js',
    });
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, envelope);
    const hans = (envelope.event as { ts: string }).ts;
    const localeCard = await world.slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.args.thread_ts === hans && /^Aufgabe \(/.test(String(c.args.text)),
      30_000,
    );
    expect(String(localeCard.args.text)).toMatch(/^Aufgabe \(Funktion\) in acme\/shop: :hourglass_flowing_sand: In der Warteschlange/);
    // The line under the thread read the request in German before the reading, from the Slack locale.
    const hansStatus = world.slack.callsTo('assistant.threads.setStatus').find((c) => c.args.thread_ts === hans);
    expect(hansStatus?.args).toMatchObject({ status: 'liest deine Anfrage…', loading_messages: ['Lese deine Anfrage…', 'Schaue mir acme/shop an…'] });
    const deReply = await world.slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.args.thread_ts === hans && /^:white_check_mark: Pull Request geöffnet: PR #/.test(String(c.args.text)),
      150_000,
    );
    expect(String(deReply.args.text)).toContain('*Zusammenfassung (Darstellung des Agenten)*\n\n> Handled locale-marker.');
    expect(String(deReply.args.text)).toContain('*Änderungen (laut committetem Diff)*\n\n•   `src/locale.js` (+1 −0)');
    expect(JSON.stringify(deReply.args.blocks)).toMatch(/\d+ Schritte · \d+s · [\d.]+k? Tokens · \$\d+\.\d\d(?:"| · )/);
  });

  it('a run cancelled in a German thread says so in German: who cancelled it and what became of the work', async () => {
    script(
      reading({ language: 'de', summary: 'Einen Kommentar in src/cart.js ergänzen.' }),
      scriptByRun({ 'de-cancel': [bashStep('sleep 60'), finishStep('never')] }).items,
    );
    const ts = await mention('de-cancel: Bitte einen Kommentar in src/cart.js ergänzen');
    // The card's progress line says the agent's command in German, the command as it is.
    await world.slack.waitFor(
      (c) =>
        c.method === 'chat.update' &&
        String(c.args.text).includes(':hammer_and_wrench: In Arbeit · `sleep 60` läuft · ') &&
        JSON.stringify(c.args).includes(ts),
      60_000,
    );
    const card = world.slack.messages('C0READ', ts).find((m) => m.ts !== ts && m.bot_id);
    await world.slack.deliverEvent(
      world.eventsUrl(),
      SIGNING_SECRET,
      reactionAddedEnvelope({ user: 'U0ALICE', reaction: 'x', channel: 'C0READ', ts: card?.ts ?? '' }),
    );
    const reply = await world.slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts && /Vorzeitig beendet/.test(String(c.args.text)),
      30_000,
    );
    expect(String(reply.args.text)).toBe(
      ':warning: Vorzeitig beendet, ohne Änderungen.\n\n*Vorzeitig beendet*\nVon <@U0ALICE> abgebrochen. Es hatte sich noch nichts geändert, daher gibt es keinen Branch.',
    );
    await world.slack.waitFor((c) => c.method === 'chat.update' && /^Aufgabe .*:no_entry_sign: Abgebrochen · nach /.test(String(c.args.text)), 15_000);
  });

  it('a draft in a German thread says why in German; the pull request body says it in English', async () => {
    script(reading({ category: 'feature', language: 'de', summary: 'Einen CI-Workflow hinzufügen.' }), agentRun('de-draft', '.github/workflows/ci.yml'));
    const ts = await mention('de-draft: Bitte einen CI-Workflow in .github/workflows/ci.yml hinzufügen');
    const reply = await world.slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts && /Warum dies ein Entwurf ist/.test(String(c.args.text)),
      150_000,
    );
    expect(String(reply.args.text)).toMatch(/^:warning: Entwurfs-Pull-Request geöffnet: PR #\d+/);
    expect(String(reply.args.text)).toContain(
      '*Warum dies ein Entwurf ist*\nDiese Änderung berührt geschützte Pfade (`.github/workflows/ci.yml`); eine Person mit Freigaberecht muss sie prüfen und freigeben, bevor sie als bereit markiert wird.',
    );
    const pull = world.github.pulls('acme', 'shop').find((p) => p.body?.includes('de-draft'));
    expect(pull?.draft).toBe(true);
    expect(pull?.body).toContain('## Why this is a draft\nThis change touches protected paths (`.github/workflows/ci.yml`)');
  });

  it('once the repository is cached, the reader sees its top level and the files matching the instruction', async () => {
    // The Spanish test before this one ran a task on acme/shop: its mirror is cached.
    script(reading({ summary: 'Fix the cart total.' }), agentRun('view marker', 'src/view.js'));
    const ts = await mention('view marker: the cart total ignores discounts');
    await world.slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts && /Opened PR #/.test(String(c.args.text)), 150_000);
    const request = readerRequests().at(-1);
    expect(request).toBeDefined();
    const content = JSON.stringify((request?.body as { messages?: unknown[] } | undefined)?.messages);
    expect(content).toMatch(
      /<repository>\\nTop level of acme\/shop \(\d+ files\): [^<]*src\/[^<]*Files whose names match words of the instruction:\\nsrc\/cart\.js\\n<\/repository>/,
    );
  });

  it('a whole rewrite asked as a follow-up in a thread with a finished run is declined too', async () => {
    script(reading({ summary: 'Go on.' }), agentRun('follow marker', 'src/follow.js'));
    const ts = await mention('follow marker: add src/follow.js exporting `ok` next to src/cart.js');
    await world.slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts && /Opened PR #/.test(String(c.args.text)), 150_000);
    script(reading({ category: 'refactoring', summary: 'Rewrite it in Go.' }), agentRun('Go', 'main.go'));
    const followUp = appMentionEnvelope({ channel: 'C0READ', user: 'U0ALICE', text: '<@U0BOT> now port the whole app to Go', thread_ts: ts });
    await world.slack.deliverEvent(world.eventsUrl(), SIGNING_SECRET, followUp);
    await world.slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts && /too large/.test(String(c.args.text)), 30_000);
    expect(world.slack.calls.filter((c) => c.args.thread_ts === ts && /Queued/.test(String(c.args.text)))).toHaveLength(1);
  });

  it("the rules' sure hold wins over a model reading of well-formed: a whole rewrite is declined, nothing queued, and classify says the same", async () => {
    const tasks = new Queue('tasks', { connection: { url: world.redis.url }, prefix: world.env.WRENCH_QUEUE_PREFIX });
    try {
      const queuedBefore = await tasks.getJobCountByTypes('waiting', 'active', 'delayed', 'prioritized', 'completed', 'failed');
      const lenient = () => reading({ category: 'refactoring', complexity: 'complex', summary: 'Rewrite the backend in Rust.' });
      script(lenient(), agentRun('Rust', 'src/main.rs'));
      const ts = await mention('Rewrite the whole backend in Rust.');
      const card = await world.slack.waitFor(
        (c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts && /too large/.test(String(c.args.text)),
        30_000,
      );
      expect(String(card.args.text)).toMatch(/single endpoint/);
      expect(readerRequests().at(-1)?.body).toMatchObject({ model: READER_MODEL });
      expect(world.wrench!.output()).toMatch(/the rules' sure hold \(whole-rewrite\) decides/);
      // The decision is made when the card is posted: the only model request was the reading, and no job exists.
      expect(world.anthropic.requests.filter((r) => JSON.stringify(r.body).includes('Rewrite the whole backend in Rust'))).toHaveLength(1);
      expect(await tasks.getJobCountByTypes('waiting', 'active', 'delayed', 'prioritized', 'completed', 'failed')).toBe(queuedBefore);
      expect(world.slack.calls.filter((c) => c.args.thread_ts === ts && /Queued/.test(String(c.args.text)))).toHaveLength(0);

      // `wrench classify` reads it with the same model answer and shows the same decision.
      script(lenient(), []);
      const classified = await runWrench(['classify', '--json', 'Rewrite the whole backend in Rust.'], {
        ANTHROPIC_API_KEY: ANTHROPIC_KEY,
        ANTHROPIC_BASE_URL: world.anthropic.url,
        WRENCH_READER_MODEL: READER_MODEL,
      });
      expect(classified.stderr).toBe('');
      expect(JSON.parse(classified.stdout)).toMatchObject({ verdict: 'unrealistic', missing: ['scope'] });
    } finally {
      await tasks.close();
    }
  });

  it('a reader that times out, fails or answers nonsense falls back to the rules, and the task still gets its answer', async () => {
    const slow = { ...reading({}), delayMs: 5000 };
    const cases: Array<[string, ScriptItem]> = [
      ['timeout marker', slow],
      ['failure marker', errorResponse(500)],
      ['nonsense marker', textResponse('I think this is a bug fix, probably.')],
    ];
    for (const [marker, readerReply] of cases) {
      script(readerReply, agentRun(marker, `src/${marker.split(' ')[0]}.js`));
      const ts = await mention(`${marker}: add src/${marker.split(' ')[0]}.js exporting \`ok\` next to src/cart.js`);
      const reply = await world.slack.waitFor(
        (c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts && /Opened PR #/.test(String(c.args.text)),
        150_000,
      );
      expect(String(reply.args.text)).toContain(`Handled ${marker}.`);
    }
    expect(world.wrench!.output()).toMatch(/the model reader did not answer within \d+ ms: the rules decide/);
    expect(world.wrench!.output()).toMatch(/the model reader answered with an error \(HTTP 500\): the rules decide/);
    expect(world.wrench!.output()).toMatch(/the model reader answered no valid reading: the rules decide/);
  });

  it('recurring work only the reader recognises gets the schedule card, nothing queued; classify says the model read it', async () => {
    const tasks = new Queue('tasks', { connection: { url: world.redis.url }, prefix: world.env.WRENCH_QUEUE_PREFIX });
    try {
      const queuedBefore = await tasks.getJobCountByTypes('waiting', 'active', 'delayed', 'prioritized', 'completed', 'failed');
      const text = 'each weekday morning, could you check src/cart.js for prices below zero?';
      const recurring = () =>
        reading({
          category: 'code-review',
          summary: 'Check src/cart.js for negative prices.',
          schedule: { cron: '0 9 * * 1-5', when: 'each weekday morning', instruction: 'check src/cart.js for prices below zero' },
        });
      script(recurring(), []);
      const ts = await mention(text);
      const card = await world.slack.waitFor(
        (c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts && JSON.stringify(c.args.blocks ?? '').includes('Confirm schedule'),
        30_000,
      );
      const blocks = JSON.stringify(card.args.blocks);
      expect(blocks).toContain('_each weekday morning_');
      expect(blocks).toContain('check src/cart.js for prices below zero');
      // Logged once the card's timestamp is stored, just after the card.
      await expect.poll(() => world.wrench!.output(), { timeout: 10_000 }).toMatch(/"readBy":"model"[^\n]*"msg":"proposed a schedule"/);
      expect(await tasks.getJobCountByTypes('waiting', 'active', 'delayed', 'prioritized', 'completed', 'failed')).toBe(queuedBefore);
      expect(world.slack.calls.filter((c) => c.args.thread_ts === ts && /Queued/.test(String(c.args.text)))).toHaveLength(0);

      script(recurring(), []);
      const classified = await runWrench(['classify', text], {
        ANTHROPIC_API_KEY: ANTHROPIC_KEY,
        ANTHROPIC_BASE_URL: world.anthropic.url,
        WRENCH_READER_MODEL: READER_MODEL,
      });
      expect(classified.stdout.split('\n')[0]).toBe(
        `Schedule: each weekday morning (cron 0 9 * * 1-5, in the requester's Slack time zone), read by the model; each run is asked "check src/cart.js for prices below zero", read below.`,
      );
    } finally {
      await tasks.close();
    }
  });

  it("the reading is counted in the run's usage", async () => {
    // A reading billed far above what two small agent steps cost: the run's usage line must include it.
    script(
      { ...reading({ category: 'feature', summary: 'Add a helper.' }), usage: { input_tokens: 60_000, output_tokens: 500 } },
      agentRun('usage marker', 'src/usage.js'),
    );
    const ts = await mention('usage marker: add src/usage.js exporting `ok` next to src/cart.js');
    const reply = await world.slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts && /Opened PR #/.test(String(c.args.text)),
      150_000,
    );
    const tokens = /· ([\d.]+)k tokens/.exec(JSON.stringify(reply.args.blocks ?? ''))?.[1];
    expect(Number(tokens)).toBeGreaterThanOrEqual(60.5);
  });
});
