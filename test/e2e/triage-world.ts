import { Queue } from 'bullmq';
import { startPagerDutyFake, type PagerDutyFake } from '../fakes/pagerduty-fake.js';
import { sendPagerDutyWebhook, type SendWebhookOptions } from '../fakes/pagerduty-webhook-sender.js';
import { createE2eWorld, type E2eWorld } from './e2e-world.js';

export const PD_TOKEN = 'pd-e2e-token-0123456789abcdef';
export const PD_FROM = 'wrench@acme.test';
/** Wrench accepts both during a rotation; PagerDuty signs with one or both. */
export const PD_SECRETS = ['pd-old-secret-0123456789', 'pd-new-secret-9876543210'];

/** The e2e world plus a PagerDuty fake, with Wrench started on both and its webhook on. */
export interface TriageWorld extends E2eWorld {
  pagerduty: PagerDutyFake;
  webhookUrl(): string;
  sendWebhook(payload: Record<string, unknown> | string, options?: Partial<SendWebhookOptions>): ReturnType<typeof sendPagerDutyWebhook>;
  /** Every job in Wrench's triage and incidents queues, in any state. */
  triageJobCount(): Promise<number>;
  /** The ids of every job in Wrench's triage and incidents queues, in any state, sorted. */
  triageJobIds(): Promise<string[]>;
  /** What the processor of a triage or incidents job returned, once it has finished (a failed job throws its reason). */
  jobResult(jobId: string, timeoutMs?: number): Promise<unknown>;
  /** The state of a job of the triage queue (a triage run or a revert). */
  triageJobState(jobId: string): Promise<string>;
}

export async function createTriageWorld(configYaml: string): Promise<TriageWorld> {
  const base = await createE2eWorld(configYaml);
  const pagerduty = await startPagerDutyFake({ token: PD_TOKEN });
  const queue = new Queue('triage', { connection: { url: base.redis.url }, prefix: base.env.WRENCH_QUEUE_PREFIX });
  const incidents = new Queue('incidents', { connection: { url: base.redis.url }, prefix: base.env.WRENCH_QUEUE_PREFIX });
  const queues = [queue, incidents];
  const ALL = ['waiting', 'active', 'delayed', 'completed', 'failed', 'prioritized'] as const;
  const stopBase = base.stop.bind(base);
  const startBase = base.start.bind(base);
  const world: TriageWorld = Object.assign(base, {
    pagerduty,
    webhookUrl: () => `${base.wrench!.url}/pagerduty/webhook`,
    sendWebhook: (payload: Record<string, unknown> | string, options: Partial<SendWebhookOptions> = {}) =>
      sendPagerDutyWebhook(world.webhookUrl(), payload, { secrets: PD_SECRETS[1]!, ...options }),
    async triageJobCount() {
      const counts = await Promise.all(queues.map((q) => q.getJobCounts(...ALL)));
      return counts.flatMap((c) => Object.values(c)).reduce((sum, n) => sum + n, 0);
    },
    async triageJobIds() {
      const jobs = (await Promise.all(queues.map((q) => q.getJobs([...ALL])))).flat();
      return jobs.map((job) => job.id!).sort();
    },
    triageJobState: (jobId: string) => queue.getJobState(jobId),
    async jobResult(jobId: string, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const states = await Promise.all(queues.map((q) => q.getJobState(jobId)));
        const at = states.findIndex((state) => state !== 'unknown');
        const state = at >= 0 ? states[at] : 'unknown';
        // Read after the state: a job read while it was still active has no return value yet.
        const job = state === 'completed' || state === 'failed' ? await queues[at]!.getJob(jobId) : undefined;
        if (state === 'failed') throw new Error(`job ${jobId} failed: ${job?.failedReason}`);
        if (state === 'completed') return job?.returnvalue as unknown;
        if (Date.now() >= deadline) throw new Error(`waited ${timeoutMs} ms: job ${jobId} is ${state}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  });
  world.start = (extraEnv = {}) =>
    startBase({
      PAGERDUTY_API_TOKEN: PD_TOKEN,
      PAGERDUTY_FROM_EMAIL: PD_FROM,
      PAGERDUTY_API_URL: pagerduty.url,
      PAGERDUTY_WEBHOOK_SECRETS: PD_SECRETS.join(','),
      ...extraEnv,
    });
  world.stop = async () => {
    await Promise.all(queues.map((q) => q.close()));
    await stopBase();
    await pagerduty.stop();
  };
  return world;
}
