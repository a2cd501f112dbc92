/**
 * One worker process of a fleet sharing the model budget: its own Redis connection, ModelBudget and SDK client (no
 * retries), making `calls` Messages calls at once. Prints how many were answered and refused, as JSON.
 */
import Anthropic from '@anthropic-ai/sdk';
import { Redis } from 'ioredis';
import { ModelBudget, type ModelBudgetLimits } from '../../../../src/agent/model-budget.js';

const { redisUrl, prefix, fakeUrl, calls, windowMs, marginMs, limits } = JSON.parse(process.argv[2]!) as {
  redisUrl: string;
  prefix: string;
  fakeUrl: string;
  calls: number;
  windowMs: number;
  marginMs: number;
  limits: ModelBudgetLimits;
};
const redis = new Redis(redisUrl);
const budget = new ModelBudget(redis, prefix, limits, { windowMs, marginMs });
const client = new Anthropic({ apiKey: 'sk-ant-test', baseURL: fakeUrl, maxRetries: 0, middleware: [budget.middleware()] });
const answers = await Promise.allSettled(
  Array.from({ length: calls }, () =>
    client.messages.create({ model: 'claude-sonnet-5-5', max_tokens: 100, messages: [{ role: 'user', content: `process ${process.pid}` }] }),
  ),
);
process.stdout.write(
  JSON.stringify({
    answered: answers.filter((a) => a.status === 'fulfilled').length,
    refused: answers.filter((a) => a.status === 'rejected').map((a) => String((a as PromiseRejectedResult).reason)),
  }),
);
redis.disconnect();
