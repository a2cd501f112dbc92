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

  it('label a Slack 429 `ratelimited` (Slack’s code), and count one retry per 429 only where the client retries it', async () => {
    const slack = await startSlackFake();
    try {
      const metrics = createMetrics();
      const retrying = new WebClient('xoxb-test', { slackApiUrl: slack.apiUrl, retryConfig: { retries: 2, minTimeout: 0, maxTimeout: 0 } });
      const rejecting = new WebClient('xoxb-test', { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 }, rejectRateLimitedCalls: true });
      countSlackCalls(retrying, metrics);
      countSlackCalls(rejecting, metrics);
      slack.failNext('chat.postMessage', { status: 429, retryAfter: 0 });
      await retrying.chat.postMessage({ channel: 'C0DEV', text: 'hi' });
      expect(await value(metrics, 'wrench_api_retries_total', { service: 'slack' })).toBe(1);
      slack.failNext('chat.postMessage', { status: 429, retryAfter: 1 });
      await expect(rejecting.chat.postMessage({ channel: 'C0DEV', text: 'hi' })).rejects.toThrow();
      expect(await value(metrics, 'wrench_api_retries_total', { service: 'slack' })).toBe(1);
      expect(await value(metrics, 'wrench_api_errors_total', { service: 'slack', code: 'ratelimited' })).toBe(1);
      const labels = (await metrics.registry.getSingleMetric('wrench_api_errors_total')!.get()).values.map((v) => v.labels.code);
      expect(labels.filter((code) => String(code).startsWith('slack_webapi'))).toEqual([]);
    } finally {
      await slack.stop();
    }
  });

  it('time each Anthropic Messages call, whatever its answer', async () => {
    const metrics = createMetrics();
    const answers = [new Response('{}', { status: 200 }), new Response('{}', { status: 529 }), new Response('{}', { status: 200 })];
    const fetch = countingFetch('anthropic', metrics, async () => answers.shift()!);
    await fetch('https://api.example/v1/messages');
    await fetch('https://api.example/v1/messages');
    await fetch('https://api.example/v1/models');
    const counts = (await metrics.registry.getSingleMetric('wrench_model_call_duration_seconds')!.get()).values.filter((v) =>
      (v as { metricName?: string }).metricName?.endsWith('_count'),
    );
    expect(Object.fromEntries(counts.map((v) => [v.labels.outcome, v.value]))).toEqual({ ok: 1, error: 1 });
  });
});
