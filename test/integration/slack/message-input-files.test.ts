import { WebClient, LogLevel } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { appMentionEnvelope, startSlackFake, type SlackFake } from '../../fakes/slack-fake.js';
import { compareSlackTs, SlackMessageFiles } from '../../../src/slack/message-input-files.js';
import { stageInputFiles } from '../../../src/inputs/stage-input-files.js';
import { ThreadPoster } from '../../../src/slack/thread-poster.js';
import { createRedactor } from '../../../src/security/redact.js';

const TOKEN = 'xoxb-files-test-token-0123456789';

describe('attachments of a Slack message as input files, and files shared back', () => {
  let fake: SlackFake;
  let client: WebClient;

  beforeAll(async () => {
    fake = await startSlackFake({ tokens: [TOKEN] });
    client = new WebClient(TOKEN, { slackApiUrl: fake.apiUrl, logLevel: LogLevel.ERROR, retryConfig: { retries: 0 } });
  });
  afterAll(() => fake.stop());

  it('lists the files of the requesting message and downloads them with the bot token', async () => {
    const csv = fake.addFile({ name: '../sales data.csv', content: 'region,amount\nnorth,10\n', mimetype: 'text/csv' });
    const envelope = appMentionEnvelope({ channel: 'C1', user: 'U1', text: '<@U0BOT> analyse this', files: [csv] });
    await fake.deliverEvent('http://127.0.0.1:9/never', 'x', envelope).catch(() => undefined);
    const ts = (envelope.event as { ts: string }).ts;

    const files = await new SlackMessageFiles(client, 'C1', ts, ts).list();
    expect(files.map((f) => f.name)).toEqual(['../sales data.csv']);
    const dir = await mkdtemp(path.join(tmpdir(), 'wrench-inputs-'));
    try {
      const staged = await stageInputFiles(dir, files);
      expect(staged.staged).toEqual([{ path: 'wrench-input/sales_data.csv', bytes: 23 }]);
      expect(await readFile(path.join(dir, 'wrench-input/sales_data.csv'), 'utf8')).toBe('region,amount\nnorth,10\n');
      const tooSmall = await stageInputFiles(dir, files, { maxFiles: 5, maxFileBytes: 10, maxTotalBytes: 100 });
      expect(tooSmall.skipped[0]!.reason).toContain('too large');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    expect(fake.callsTo('file_download').at(-1)).toMatchObject({ token: TOKEN, status: 200 });
  });

  it("lists the files of the thread's messages from people, up to the request and after an earlier one, in order", async () => {
    const file = (name: string) => fake.addFile({ name, content: name, mimetype: 'image/png' });
    const root = fake.seedMessage('C3', { user: 'U1', text: 'the page looks broken', files: [file('root.png')] });
    fake.seedMessage('C3', { user: 'U0BOT', bot_id: 'B0BOT', text: 'chart', thread_ts: root.ts, files: [file('bot-chart.png')] });
    const first = fake.seedMessage('C3', { user: 'U1', text: '<@U0BOT> fix it', thread_ts: root.ts, files: [file('first.png')] });
    fake.seedMessage('C3', { user: 'U2', text: 'in Safari too', thread_ts: root.ts, files: [file('safari.png'), file('console.txt')] });
    const second = fake.seedMessage('C3', { user: 'U1', text: '<@U0BOT> and Safari', thread_ts: root.ts });
    fake.seedMessage('C3', { user: 'U2', text: 'later', thread_ts: root.ts, files: [file('later.png')] });

    const names = async (messageTs: string, after?: string) =>
      (await new SlackMessageFiles(client, 'C3', root.ts, messageTs).threadFiles(after)).map((f) => f.name);
    expect(await names(first.ts)).toEqual(['root.png', 'first.png']);
    expect(await names(second.ts, first.ts)).toEqual(['safari.png', 'console.txt']);
    const [safari] = await new SlackMessageFiles(client, 'C3', root.ts, second.ts).threadFiles(first.ts);
    expect((await safari!.download(1000)).toString()).toBe('safari.png');
  });

  it('orders Slack timestamps exactly', () => {
    expect(compareSlackTs('1700000000.000100', '1700000000.000099')).toBe(1);
    expect(compareSlackTs('1700000000.9', '1700000001.000001')).toBe(-1);
    expect(compareSlackTs('1799999999.123456', '1799999999.123456')).toBe(0);
  });

  it('refuses a download without the token the way Slack does', async () => {
    const file = fake.addFile({ name: 'a.txt', content: 'secret' });
    const response = await fetch(String(file.url_private), { redirect: 'manual' });
    expect(response.status).toBe(302);
  });

  it('uploads text (redacted) and images (as they are) into the thread with filesUploadV2', async () => {
    const parent = await client.chat.postMessage({ channel: 'C2', text: 'result' });
    const poster = new ThreadPoster(client, createRedactor(['hunter2-secret-value']));
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff]);
    await poster.upload(
      'C2',
      parent.ts!,
      [
        { filename: 'report.md', kind: 'text', content: Buffer.from('# Report\npassword hunter2-secret-value\n') },
        { filename: 'chart.png', kind: 'image', content: png },
      ],
      'Files from this run',
    );
    const uploads = fake.uploads.filter((u) => u.thread_ts === parent.ts);
    expect(uploads.map((u) => u.filename)).toEqual(['report.md', 'chart.png']);
    expect(uploads[0]!.text).toBe('# Report\npassword [redacted]\n');
    expect(uploads[1]!.bytes.equals(png)).toBe(true);
    expect(fake.callsTo('files.getUploadURLExternal')).toHaveLength(2);
    expect(fake.callsTo('files.completeUploadExternal').at(-1)!.args.channel_id).toBe('C2');
  });
});
