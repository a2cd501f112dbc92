import { LogLevel, WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logging/logger.js';
import type { TaskJob } from '../../../src/queue/task-job.js';
import { slackReporterFactory } from '../../../src/slack/slack-reporter-factory.js';
import type { ThreadOutbox } from '../../../src/slack/thread-outbox.js';
import { appMentionEnvelope, startSlackFake, type SlackFake } from '../../fakes/slack-fake.js';

const TOKEN = 'xoxb-lookups-test-token-0123456789';

describe("a Slack run's reporter does not wait for Slack's lookups (thread link, requester)", () => {
  let fake: SlackFake;
  let client: WebClient;

  beforeAll(async () => {
    fake = await startSlackFake({ tokens: [TOKEN] });
    client = new WebClient(TOKEN, { slackApiUrl: fake.apiUrl, logLevel: LogLevel.ERROR, retryConfig: { retries: 0 } });
  });
  afterAll(() => fake.stop());

  it('hands the reporter over while Slack has not answered, and the lookups then say what Slack answered', async () => {
    const envelope = appMentionEnvelope({ channel: 'C1', user: 'U0ALICE', text: '<@U0BOT> add a module' });
    await fake.deliverEvent('http://127.0.0.1:9/never', 'x', envelope).catch(() => undefined);
    const ts = (envelope.event as { ts: string }).ts;
    let answer: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      answer = resolve;
    });
    fake.hold('chat.getPermalink', held);
    fake.hold('users.info', held);
    const job: TaskJob = {
      kind: 'task',
      origin: { type: 'slack', teamId: 'T1', channel: 'C1', threadTs: ts, messageTs: ts, stream: true },
      repo: { owner: 'acme', name: 'web' },
      instruction: 'add a module',
      category: 'feature',
      complexity: 'simple',
      elements: {},
      requester: { slackUserId: 'U0ALICE' },
      requestedAt: new Date().toISOString(),
    };
    const reporterFor = slackReporterFactory(client, {} as ThreadOutbox, undefined, createLogger({ level: 'silent' }));

    const context = await reporterFor(job, 'run-1');
    expect(context.reporter).toBeDefined();
    // Both lookups reached Slack and neither has been answered: the run could start meanwhile.
    await fake.waitFor((c) => c.method === 'chat.getPermalink');
    await fake.waitFor((c) => c.method === 'users.info');
    let settled = false;
    const lookups = context.lookups!.then((found) => {
      settled = true;
      return found;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(settled).toBe(false);

    answer();
    const found = await lookups;
    expect(found.threadUrl).toContain(`/archives/C1/p${ts.replace('.', '')}`);
    expect(found.requesterName).toBe('user-u0alice');
    expect(found.requesterEmail).toBe('user-u0alice@example.com');
  });
});
