import { describe, expect, it } from 'vitest';
import { WebClient } from '@slack/web-api';
import { countingFetch, countSlackCalls } from '../../../src/metrics/count-api-calls.js';
import { createMetrics } from '../../../src/metrics/metrics.js';
import { startSlackFake } from '../../fakes/slack-fake.js';

const value = async (metrics: ReturnType<typeof createMetrics>, name: string, labels: Record<string, string>) =>
  (await metrics.registry.getSingleMetric(name)!.get()).values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l))?.value ?? 0;

describe('API call metrics', () => {
  it('count failed responses by status, network failures and the Anthropic SDK retries', async () => {
    const metrics = createMetrics();
    const answers = [new Response('{}', { status: 529 }), new Response('{}', { status: 200 })];
    const fetch = countingFetch('anthropic', metrics, async () => answers.shift()!);
    await fetch('https://api.example/v1/messages', { headers: { 'x-stainless-retry-count': '0' } });
    await fetch('https://api.example/v1/messages', { headers: { 'x-stainless-retry-count': '1' } });
    const failing = countingFetch('github', metrics, async () => {
      throw new TypeError('fetch failed');
    });
    await expect(failing('https://api.github.example/repos')).rejects.toThrow('fetch failed');
    expect(await value(metrics, 'wrench_api_errors_total', { service: 'anthropic', code: '529' })).toBe(1);
    expect(await value(metrics, 'wrench_api_retries_total', { service: 'anthropic' })).toBe(1);
    expect(await value(metrics, 'wrench_api_errors_total', { service: 'github', code: 'network' })).toBe(1);
  });

  it('count a Slack client’s failed calls by Slack’s error code', async () => {
    const slack = await startSlackFake();
    try {
      const metrics = createMetrics();
      const client = new WebClient('xoxb-test', { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
      countSlackCalls(client, metrics);
      slack.failNext('chat.postMessage', { error: 'channel_not_found' });
      await expect(client.chat.postMessage({ channel: 'C0NONE', text: 'hi' })).rejects.toThrow(/channel_not_found/);
      await client.chat.postMessage({ channel: 'C0DEV', text: 'hi' });
      slack.failNext('chat.update', { status: 500 });
      await expect(client.chat.update({ channel: 'C0DEV', ts: '1.2', text: 'hi' })).rejects.toThrow();
      expect(await value(metrics, 'wrench_api_errors_total', { service: 'slack', code: 'channel_not_found' })).toBe(1);
      expect(await value(metrics, 'wrench_api_errors_total', { service: 'slack', code: '500' })).toBe(1);
    } finally {
      await slack.stop();
    }
  });
});
