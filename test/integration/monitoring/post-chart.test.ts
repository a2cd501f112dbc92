import { LogLevel, WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderMetricChart } from '../../../src/monitoring/metric-chart.js';
import { postChartToThread } from '../../../src/monitoring/post-chart.js';
import { type SlackFake, startSlackFake } from '../../fakes/slack-fake.js';

describe('postChartToThread through the Slack fake', () => {
  let fake: SlackFake;
  beforeAll(async () => {
    fake = await startSlackFake();
  });
  afterAll(() => fake.stop());

  it('uploads the PNG into the thread with getUploadURLExternal and completeUploadExternal', async () => {
    const client = new WebClient('xoxb-test', { slackApiUrl: fake.apiUrl, logLevel: LogLevel.ERROR });
    const parent = await client.chat.postMessage({ channel: 'C0INC', text: 'incident' });
    const samples = Array.from({ length: 12 }, (_, i) => ({ time: 1_700_000_000 + i * 60, value: i < 6 ? 1 : 5 }));
    const png = await renderMetricChart('errors', [{ labels: {}, samples }], [{ time: 1_700_000_000 + 360, label: 'incident' }]);
    const fileId = await postChartToThread(client, {
      channel: 'C0INC',
      threadTs: parent.ts as string,
      filename: 'errors.png',
      title: 'errors',
      altText: 'error rate',
      png,
      comment: 'errors around the incident',
    });
    expect(fake.uploads).toHaveLength(1);
    expect(fake.uploads[0]).toMatchObject({ id: fileId, filename: 'errors.png', channel: 'C0INC', thread_ts: parent.ts, alt_text: 'error rate' });
    expect(fake.uploads[0].bytes.equals(png)).toBe(true);
  });
});
