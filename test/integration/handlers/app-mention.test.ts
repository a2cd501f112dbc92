import type { WebClient } from '@slack/web-api';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleAppMention } from '../../../handlers/app-mention.js';
import { acceptInstruction } from '../../../handlers/accept-instruction.js';
import type { HandlerDeps } from '../../../handlers/handler-deps.js';
import { startHandlerWorld, type HandlerWorld } from '../../helpers/handler-world.js';
import { loadConfig } from '../../../src/config/load-config.js';
import type { ThreadSessionStore } from '../../../src/sessions/thread-session-store.js';
import type { SlackFake } from '../../fakes/slack-fake.js';
import type { TempDir } from '../../helpers/temp-dir.js';
import { uniqueName } from '../../helpers/unique-name.js';
import { pollFor } from '../../fakes/shared/wait-for.js';
import { readInstruction } from '../../../src/instruction/read-instruction.js';

/** The mention handler as a plain function of (input, deps), with real Redis and the Slack fake. */
describe('handleAppMention', () => {
  let world: HandlerWorld;
  let slack: SlackFake;
  let dir: TempDir;
  let deps: HandlerDeps;
  let client: WebClient;

  beforeAll(async () => {
    world = await startHandlerWorld('mention');
    ({ slack, dir, deps, client } = world);
  });

  afterAll(async () => {
    await world?.stop();
  });

  it('tells the person in the thread when taking the request fails after the :eyes:', async () => {
    const broken: HandlerDeps = {
      ...deps,
      sessions: { get: async () => Promise.reject(new Error('session store unreachable')) } as unknown as ThreadSessionStore,
    };
    const ts = '1700000100.000100';
    const outcome = await handleAppMention(
      {
        eventId: uniqueName('Ev'),
        botUserId: 'U0BOT',
        event: { channel: 'C0DEV', user: 'U0ALICE', text: '<@U0BOT> add a --json flag to src/cli.ts', ts },
        client,
      },
      broken,
    );
    expect(outcome).toBe('failed');
    const told = await slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts, 10_000);
    expect(String(told.args.text)).toMatch(/Something went wrong while I was taking this request, so nothing was started\. Mention me again/);
    expect(String(told.args.text)).not.toContain('session store unreachable');
  });

  it('by default (slack.streamRuns unset), starts the run as one streamed message instead of a card, and ends it there when the run cannot be queued', async () => {
    expect(deps.config.file.slack.streamRuns).toBe(true);
    const tasks = {
      add: () => Promise.reject(new Error('READONLY You cannot write against a read only replica.')),
      getJobCountByTypes: async () => 0,
      getJobs: async () => [],
    };
    const streaming: HandlerDeps = { ...deps, queues: { ...deps.queues, tasks } as unknown as HandlerDeps['queues'] };
    const ts = '1700000200.000100';
    const outcome = await handleAppMention(
      {
        eventId: uniqueName('Ev'),
        botUserId: 'U0BOT',
        teamId: 'T0TEAM',
        event: { channel: 'C0DEV', user: 'U0ALICE', text: '<@U0BOT> fix the off-by-one in formatDate in src/date.js; `npm test` must pass', ts },
        client,
      },
      streaming,
    );
    expect(outcome).toBe('failed');
    const stream = await pollFor(
      () => slack.streamsIn('C0DEV', ts).find((s) => s.state === 'stopped'),
      10_000,
      () => JSON.stringify(slack.streamsIn('C0DEV', ts)),
    );
    expect(stream).toMatchObject({ recipient: { user: 'U0ALICE', team: 'T0TEAM' }, planTitle: 'Failed: acme/web' });
    expect(stream.parts.flatMap((p) => (p.kind === 'text' ? [p.text] : [])).join('')).toMatch(/^:x: I could not queue this task/);
    // The run's one message: no card was posted.
    expect(
      slack
        .messages('C0DEV', ts)
        .filter((m) => m.bot_id)
        .map((m) => m.ts),
    ).toEqual([stream.ts]);
  });

  it('with slack.streamRuns: false, a workspace that takes streams gets the status card (the opt-out)', async () => {
    const configPath = path.join(dir.path, 'wrench.card.yml');
    writeFileSync(configPath, 'channels:\n  C0DEV: { repo: acme/web }\nslack: { streamRuns: false }\n');
    const config = loadConfig({ WRENCH_CONFIG: configPath, WRENCH_QUEUE_PREFIX: deps.config.env.WRENCH_QUEUE_PREFIX, WRENCH_DATA_DIR: dir.path }, dir.path);
    const ts = '1700000300.000100';
    const outcome = await handleAppMention(
      {
        eventId: uniqueName('Ev'),
        botUserId: 'U0BOT',
        teamId: 'T0TEAM',
        event: { channel: 'C0DEV', user: 'U0ALICE', text: '<@U0BOT> fix the off-by-one in formatDate in src/date.js; `npm test` must pass', ts },
        client,
      },
      { ...deps, config },
    );
    expect(outcome).toBe('queued');
    // The card, posted through the outbox, holds the Cancel button; no stream was tried.
    const card = await slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts, 10_000);
    expect(JSON.stringify(card.args.blocks)).toContain('wrench_cancel_run');
    expect(slack.callsTo('chat.startStream').filter((c) => c.args.thread_ts === ts)).toEqual([]);
    expect(slack.streamsIn('C0DEV', ts)).toEqual([]);
  });

  it('in a workspace remembered as refusing streams, starts the run as the same one message, an ordinary one, not a card', async () => {
    await deps.outbox.agentSurfaces.rememberRefusal('T0NOSTREAM', 'chat.startStream', 'not_allowed');
    const ts = '1700000310.000100';
    const outcome = await handleAppMention(
      {
        eventId: uniqueName('Ev'),
        botUserId: 'U0BOT',
        teamId: 'T0NOSTREAM',
        event: { channel: 'C0DEV', user: 'U0ALICE', text: '<@U0BOT> fix the off-by-one in formatDate in src/date.js; `npm test` must pass', ts },
        client,
      },
      deps,
    );
    expect(outcome).toBe('queued');
    const posted = await slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts, 10_000);
    // The plan as the stream would show it (queued), with the Cancel button the card had: not the card.
    expect(String(posted.args.text)).toMatch(/^\*Queued: .* · to stop it, mention me with "stop"\*\n:white_check_mark: Read the request/);
    expect(JSON.stringify(posted.args.blocks)).toContain('wrench_cancel_run');
    expect(slack.callsTo('chat.startStream').filter((c) => c.args.thread_ts === ts)).toEqual([]);
    const job = await deps.queues.tasks.getJob((await deps.sessions.get('C0DEV', ts))!.runs[0]!.jobId);
    expect(job?.data.origin).toMatchObject({ stream: true });
  });

  it('a mention while its held-back request is being started is not added to it: told so, and its :eyes: taken back', async () => {
    const ts = '1700000530.000100';
    const now = new Date().toISOString();
    await deps.sessions.update('C0DEV', ts, () => ({
      channel: 'C0DEV',
      threadTs: ts,
      repo: { owner: 'acme', name: 'web' },
      requester: 'U0ALICE',
      runs: [],
      // Start anyway pressed a moment ago, and still starting it.
      pending: { text: 'we need more test coverage', requester: 'U0ALICE', messageTs: ts, verdict: 'ill-formed' as const, claimedAt: now },
      createdAt: now,
      updatedAt: now,
    }));
    const eventTs = '1700000531.000100';
    const outcome = await handleAppMention(
      {
        eventId: uniqueName('Ev'),
        botUserId: 'U0BOT',
        event: { channel: 'C0DEV', user: 'U0ALICE', text: '<@U0BOT> cover getUser in src/api/users.ts', ts: eventTs, thread_ts: ts },
        client,
      },
      deps,
    );
    expect(outcome).toBe('taken');
    expect(slack.ephemerals.filter((e) => e.thread_ts === ts).map((e) => e.text)).toEqual([
      'This request was already being started when your message came in, so your message was not added to it. Once it is running, reply here to pass your message to the agent, or mention me to make it a follow-up.',
    ]);
    await slack.waitFor((c) => c.method === 'reactions.remove' && c.args.timestamp === eventTs && c.args.name === 'eyes', 10_000);
    expect((await deps.sessions.get('C0DEV', ts))?.runs).toEqual([]);
  });

  it("answers a mention without a task with help in the requester's Slack locale, or in the thread's language when it has a session", async () => {
    slack.addUser({ id: 'U0YUKI', name: 'yuki', locale: 'ja-JP' });
    const ts = '1700000510.000100';
    const mention = (user: string, threadTs: string, eventTs = threadTs) =>
      handleAppMention(
        { eventId: uniqueName('Ev'), botUserId: 'U0BOT', event: { channel: 'C0DEV', user, text: '<@U0BOT>', ts: eventTs, thread_ts: threadTs }, client },
        deps,
      );
    expect(await mention('U0YUKI', ts)).toBe('help');
    const help = await slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts, 10_000);
    expect(String(help.args.text)).toMatch(/^こんにちは。開発タスクを添えて <@U0BOT> をメンションしてください。/);
    // A German thread: its language, whatever the Slack locale of who asks.
    const german = '1700000520.000100';
    const now = new Date().toISOString();
    await deps.sessions.update('C0DEV', german, () => ({
      channel: 'C0DEV',
      threadTs: german,
      repo: { owner: 'acme', name: 'web' },
      requester: 'U0YUKI',
      language: 'de',
      runs: [],
      createdAt: now,
      updatedAt: now,
    }));
    expect(await mention('U0YUKI', german, '1700000520.000200')).toBe('help');
    const hilfe = await slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === german, 10_000);
    expect(String(hilfe.args.text)).toMatch(/^Hallo! Erwähne <@U0BOT> mit einer Entwicklungsaufgabe/);
  });

  it("says a channel has no repository, and a person may not start work, in the requester's Slack locale", async () => {
    slack.addUser({ id: 'U0KLAUS', name: 'klaus', locale: 'de-DE' });
    slack.addUser({ id: 'U0AYA', name: 'aya', locale: 'ja-JP' });
    const ts = '1700000530.000100';
    const outcome = await handleAppMention(
      {
        eventId: uniqueName('Ev'),
        botUserId: 'U0BOT',
        event: { channel: 'C0NONE', user: 'U0KLAUS', text: '<@U0BOT> add a --json flag to src/cli.ts', ts },
        client,
      },
      deps,
    );
    expect(outcome).toBe('no_repository');
    const reply = await slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts, 10_000);
    expect(String(reply.args.text)).toMatch(/^Dieser Channel ist noch mit keinem Repository verknüpft/);
    expect(String(reply.args.text)).toContain('  C0NONE: { repo: acme/web, baseBranch: main }');

    const configPath = path.join(dir.path, 'wrench.access.yml');
    writeFileSync(configPath, 'channels:\n  C0DEV: { repo: acme/web }\naccess:\n  users: [U0ALICE]\n');
    const config = loadConfig({ WRENCH_CONFIG: configPath, WRENCH_QUEUE_PREFIX: deps.config.env.WRENCH_QUEUE_PREFIX, WRENCH_DATA_DIR: dir.path }, dir.path);
    const refusedTs = '1700000540.000100';
    const refused = await handleAppMention(
      {
        eventId: uniqueName('Ev'),
        botUserId: 'U0BOT',
        event: { channel: 'C0DEV', user: 'U0AYA', text: '<@U0BOT> add a --json flag to src/cli.ts', ts: refusedTs },
        client,
      },
      { ...deps, config },
    );
    expect(refused).toBe('unauthorized');
    const note = await slack.waitFor((c) => c.method === 'chat.postEphemeral' && c.args.thread_ts === refusedTs, 10_000);
    expect(note.args.user).toBe('U0AYA');
    expect(String(note.args.text)).toMatch(/^ここで Wrench に作業を依頼できる人のリストに、あなたは含まれていません。/);
  });

  it("refuses a Slack Connect channel and a too long instruction, and says taking a request failed, in the requester's Slack locale", async () => {
    slack.addUser({ id: 'U0JONAS', name: 'jonas', locale: 'de-DE' });
    slack.addUser({ id: 'U0KEN', name: 'ken', locale: 'ja-JP' });
    const mention = (user: string, ts: string, text: string, extra: Partial<Parameters<typeof handleAppMention>[0]> = {}, with_ = deps) =>
      handleAppMention({ eventId: uniqueName('Ev'), botUserId: 'U0BOT', event: { channel: 'C0DEV', user, text, ts }, client, ...extra }, with_);
    expect(await mention('U0JONAS', '1700000550.000100', '<@U0BOT> add a --json flag to src/cli.ts', { sharedChannel: true })).toBe('unauthorized');
    const shared = await slack.waitFor((c) => c.method === 'chat.postEphemeral' && c.args.thread_ts === '1700000550.000100', 10_000);
    expect(String(shared.args.text)).toMatch(/^Wrench nimmt hier keine Arbeit in Slack-Connect-Channels an\. .*`access\.sharedChannels: true`/);

    expect(await mention('U0JONAS', '1700000560.000100', `<@U0BOT> ${'x'.repeat(20_001)}`)).toBe('ignored');
    const long = await slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === '1700000560.000100', 10_000);
    expect(String(long.args.text)).toMatch(/^Diese Anweisung ist 20,001 Zeichen lang; ich nehme höchstens 20,000\./);

    const broken: HandlerDeps = {
      ...deps,
      sessions: { get: async () => Promise.reject(new Error('session store unreachable')) } as unknown as ThreadSessionStore,
    };
    expect(await mention('U0KEN', '1700000570.000100', '<@U0BOT> add a --json flag to src/cli.ts', {}, broken)).toBe('failed');
    const failed = await slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === '1700000570.000100', 10_000);
    expect(String(failed.args.text)).toMatch(/^:x: このリクエストの受け付け中に問題が発生したため、何も開始していません。/);
    expect(String(failed.args.text)).not.toContain('session store unreachable');
  });

  it("asks what is missing in the requester's Slack locale when the rules read the request", async () => {
    slack.addUser({ id: 'U0LENA', name: 'lena', locale: 'de-DE' });
    const ts = '1700000580.000100';
    const outcome = await handleAppMention(
      { eventId: uniqueName('Ev'), botUserId: 'U0BOT', event: { channel: 'C0DEV', user: 'U0LENA', text: '<@U0BOT> we need more test coverage', ts }, client },
      deps,
    );
    expect(outcome).toBe('clarifying');
    const card = await slack.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts, 10_000);
    expect(String(card.args.text)).toBe(
      [
        'Bevor ich anfange, brauche ich noch etwas mehr, damit ich nicht raten muss:',
        '1. Was sollen die Tests abdecken? Nenne das Modul, die Funktion oder das Verhalten, das getestet werden soll.',
        '2. Wo liegt der Code, der getestet werden soll? Nenne die Datei oder das Verzeichnis.',
        'Antworte hier im Thread oder drücke *Details ergänzen*.',
      ].join('\n'),
    );
  });

  /**
   * A mention from a person whose Slack speaks `locale`, on the status card (slack.streamRuns: false), read by `reader`
   * (none: the rules): resolves once the status line says `waiting`, with the status lines, the card and the thread's language.
   */
  const mentionOnCard = async (mention: { locale: string; text: string; waiting: string; reader?: HandlerDeps['readInstruction'] }) => {
    const user = uniqueName('U0');
    slack.addUser({ id: user, name: user.toLowerCase(), locale: mention.locale });
    const configPath = path.join(dir.path, 'wrench.card.yml');
    writeFileSync(configPath, 'channels:\n  C0DEV: { repo: acme/web }\nslack: { streamRuns: false }\n');
    const config = loadConfig({ WRENCH_CONFIG: configPath, WRENCH_QUEUE_PREFIX: deps.config.env.WRENCH_QUEUE_PREFIX, WRENCH_DATA_DIR: dir.path }, dir.path);
    const ts = `${1700000900 + (nextThread += 1)}.000100`;
    const outcome = await handleAppMention(
      { eventId: uniqueName('Ev'), botUserId: 'U0BOT', teamId: 'T0TEAM', event: { channel: 'C0DEV', user, text: `<@U0BOT> ${mention.text}`, ts }, client },
      { ...deps, config, readInstruction: mention.reader },
    );
    expect(outcome).toBe('queued');
    await slack.waitFor((c) => c.method === 'assistant.threads.setStatus' && c.args.thread_ts === ts && c.args.status === mention.waiting, 10_000);
    const statuses = slack.callsTo('assistant.threads.setStatus').filter((c) => c.args.thread_ts === ts);
    return {
      statuses: statuses.map((c) => c.args.status),
      loading: statuses[0]?.args.loading_messages,
      card: String(slack.callsTo('chat.postMessage').find((c) => c.args.thread_ts === ts)?.args.text),
      language: (await deps.sessions.get('C0DEV', ts))?.language,
    };
  };
  let nextThread = 0;
  /** The model reader, reading the request as written in `language`. */
  const readerSaying = (language: string) => async (instruction: string) => ({
    reading: { ...readInstruction(instruction), writtenIn: language },
    latencyMs: 1,
  });

  it("says under the thread that it reads the request in the requester's Slack locale, then that it waits for a worker in the reading's language", async () => {
    // The reader says the request was written in German (the person's Slack speaks Japanese).
    const thread = await mentionOnCard({
      locale: 'ja-JP',
      text: 'fix the off-by-one in formatDate in src/date.js; `npm test` must pass',
      reader: readerSaying('de'),
      waiting: 'wartet auf einen freien Worker…',
    });
    expect(thread.statuses).toEqual(['がリクエストを読んでいます…', 'wartet auf einen freien Worker…']);
    expect(thread.loading).toEqual(['リクエストを読んでいます…', 'acme/web を確認しています…']);
    // The card in between speaks the reading's language too.
    expect(thread.card).toMatch(/^Aufgabe \(Fehlerbehebung\) in acme\/web/);
  });

  it('says the status line of a Spanish thread in Spanish: reading, then waiting for a worker', async () => {
    const thread = await mentionOnCard({
      locale: 'es-ES',
      text: 'corrige el error de uno en formatDate en src/date.js; `npm test` debe pasar',
      reader: readerSaying('es'),
      waiting: 'está esperando un worker libre…',
    });
    expect(thread.statuses).toEqual(['está leyendo tu solicitud…', 'está esperando un worker libre…']);
    expect(thread.loading).toEqual(['Leyendo tu solicitud…', 'Mirando acme/web…']);
    expect(thread.card).toMatch(/^Tarea de Corrección de error en acme\/web/);
  });

  // No model reader below: the rules read each mention (their cues are English, so they name only its kind of work).
  it('says the status line of a French thread in French when the rules read it: the Slack locale (fr-CA) says French', async () => {
    const thread = await mentionOnCard({
      locale: 'fr-CA',
      text: 'corrige le bug de décalage d’un jour dans formatDate (src/date.js) ; `npm test` doit passer',
      waiting: 'attend un worker libre…',
    });
    expect(thread.statuses).toEqual(['lit votre demande…', 'attend un worker libre…']);
    expect(thread.loading).toEqual(['Je lis votre demande…', 'Je regarde acme/web…']);
    expect(thread.card).toMatch(/^Tâche \(Correction de bug\) sur acme\/web/);
  });

  it('answers a French mention in French when the rules read it, whatever the Slack locale (en-US) says', async () => {
    const thread = await mentionOnCard({
      locale: 'en-US',
      text: 'corrige le bug de décalage d’un jour dans formatDate (src/date.js) ; `npm test` doit passer et les tests aussi',
      waiting: 'attend un worker libre…',
    });
    expect(thread.card).toMatch(/^Tâche \(Correction de bug\) sur acme\/web/);
    expect(thread.language).toBe('fr');
  });

  it('says the status line and card of a Portuguese thread in Portuguese when the rules read it: the Slack locale (pt-BR) says Portuguese', async () => {
    const thread = await mentionOnCard({
      locale: 'pt-BR',
      text: 'corrija o erro de um dia a menos em formatDate (src/date.js); `npm test` deve passar',
      waiting: 'está aguardando um worker livre…',
    });
    expect(thread.statuses).toEqual(['está lendo sua solicitação…', 'está aguardando um worker livre…']);
    expect(thread.loading).toEqual(['Lendo sua solicitação…', 'Olhando acme/web…']);
    expect(thread.card).toMatch(/^Tarefa de Correção de bug em acme\/web: :hourglass_flowing_sand: Na fila/);
    expect(thread.language).toBe('pt');
  });

  it('answers a Portuguese mention in Portuguese when the rules read it, whatever the Slack locale (en-US) says', async () => {
    const thread = await mentionOnCard({
      locale: 'en-US',
      text: 'adicione um botão de exportar CSV na página de faturas, ao lado do botão Imprimir',
      waiting: 'está aguardando um worker livre…',
    });
    expect(thread.card).toMatch(/^Tarefa de Funcionalidade em acme\/web: :hourglass_flowing_sand: Na fila/);
    expect(thread.language).toBe('pt');
  });

  it('answers a Chinese mention in Simplified Chinese when the rules read it, whatever the Slack locale (en-US) says', async () => {
    const thread = await mentionOnCard({
      locale: 'en-US',
      text: '修复 formatDate（src/date.js）中日期差一天的问题；`npm test` 必须通过',
      waiting: '正在等待空闲的 worker…',
    });
    // Before the reading, the Slack locale's words; after it, the writing's.
    expect(thread.statuses).toEqual(['is reading your request…', '正在等待空闲的 worker…']);
    expect(thread.card).toMatch(/^Bug 修复任务（acme\/web）：/);
    expect(thread.language).toBe('zh');
  });

  it('keeps a Chinese mention from someone whose Slack is in Traditional Chinese (zh-TW) in English: the zh catalogue is Simplified', async () => {
    const thread = await mentionOnCard({
      locale: 'zh-TW',
      text: '修復 formatDate（src/date.js）中日期差一天的問題；`npm test` 必須通過',
      waiting: 'is waiting for a worker…',
    });
    expect(thread.language).toBe('en');
  });

  it("starts the reading at once and looks up the requester's locale beside it, not before it", async () => {
    let answerLocale: (locale: string | undefined) => void = () => undefined;
    const names = Object.assign(Object.create(deps.names), {
      userLocale: () => new Promise<string | undefined>((resolve) => (answerLocale = resolve)),
    }) as HandlerDeps['names'];
    let readerStarted = false;
    const reader = async (instruction: string) => {
      readerStarted = true;
      return { reading: readInstruction(instruction), latencyMs: 1 };
    };
    const ts = '1700000450.000100';
    const text = '<@U0BOT> fix the off-by-one in formatDate in src/date.js; `npm test` must pass';
    const outcome = handleAppMention(
      { eventId: uniqueName('Ev'), botUserId: 'U0BOT', teamId: 'T0TEAM', event: { channel: 'C0DEV', user: 'U0ALICE', text, ts }, client },
      { ...deps, names, readInstruction: reader },
    );
    await pollFor(
      () => (readerStarted ? true : undefined),
      10_000,
      () => 'the reader was not asked while the locale lookup was pending',
    );
    answerLocale('de-DE');
    expect(await outcome).toBe('queued');
    const first = await slack.waitFor((c) => c.method === 'assistant.threads.setStatus' && c.args.thread_ts === ts, 10_000);
    expect(first.args.status).toBe('liest deine Anfrage…');
  });

  it("a streamed run queued behind the thread's running one says so in the thread's language", async () => {
    const ts = '1700000500.000100';
    const now = new Date().toISOString();
    const first = { jobId: 'run-first', instruction: 'erst das', requester: 'U0HANS', status: 'running' as const, at: now };
    await deps.sessions.update('C0DEV', ts, () => ({
      channel: 'C0DEV',
      threadTs: ts,
      repo: { owner: 'acme', name: 'web', baseBranch: 'main' },
      requester: 'U0HANS',
      language: 'de',
      runs: [first],
      createdAt: now,
      updatedAt: now,
    }));
    const text = 'also fix the off-by-one in formatDate in src/date.js; `npm test` must pass';
    const input = {
      client,
      channel: 'C0DEV',
      threadTs: ts,
      messageTs: '1700000500.000200',
      teamId: 'T0TEAM',
      dedupKey: uniqueName('Ev'),
      user: 'U0HANS',
      text,
    };
    expect(await acceptInstruction(input, deps)).toBe('queued');
    const stream = await pollFor(
      () => slack.streamsIn('C0DEV', ts)[0],
      10_000,
      () => 'no stream',
    );
    expect(stream.planTitle).toMatch(/^In der Warteschlange: hinter dem Lauf, der in diesem Thread schon arbeitet/);
  });

  it("a run that cannot be queued says so in the thread's language", async () => {
    const tasks = {
      add: () => Promise.reject(new Error('READONLY You cannot write against a read only replica.')),
      getJobCountByTypes: async () => 0,
      getJobs: async () => [],
    };
    const failing: HandlerDeps = { ...deps, queues: { ...deps.queues, tasks } as unknown as HandlerDeps['queues'] };
    const ts = '1700000600.000100';
    const now = new Date().toISOString();
    await deps.sessions.update('C0DEV', ts, () => ({
      channel: 'C0DEV',
      threadTs: ts,
      repo: { owner: 'acme', name: 'web', baseBranch: 'main' },
      requester: 'U0HANS',
      language: 'ja',
      runs: [],
      createdAt: now,
      updatedAt: now,
    }));
    const text = 'fix the off-by-one in formatDate in src/date.js; `npm test` must pass';
    const input = {
      client,
      channel: 'C0DEV',
      threadTs: ts,
      messageTs: '1700000600.000200',
      teamId: 'T0TEAM',
      dedupKey: uniqueName('Ev'),
      user: 'U0HANS',
      text,
    };
    expect(await acceptInstruction(input, failing)).toBe('failed');
    const stream = await pollFor(
      () => slack.streamsIn('C0DEV', ts).find((s) => s.state === 'stopped'),
      10_000,
      () => JSON.stringify(slack.streamsIn('C0DEV', ts)),
    );
    expect(stream.parts.flatMap((p) => (p.kind === 'text' ? [p.text] : [])).join('')).toMatch(/^:x: .*このタスクをキューに追加できませんでした/);
  });
});
