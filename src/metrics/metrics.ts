import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export type ApiService = 'slack' | 'anthropic' | 'github' | 'pagerduty';

/**
 * Wrench's Prometheus metrics, one registry per process (each role serves its own /metrics).
 * Queue gauges are filled at scrape time by `watchQueues` (handlers/metrics.ts).
 */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'wrench_process_' });
  // prom-client names these gauges `…_total`, a counter's suffix, which fails `promtool check metrics`;
  // prom-client's own gauges without the suffix (`…_active_handles`, `…_active_requests`, `…_active_resources`) say the same.
  for (const name of ['active_handles', 'active_requests', 'active_resources']) registry.removeSingleMetric(`wrench_process_nodejs_${name}_total`);
  const durationBuckets = [1, 5, 15, 30, 60, 120, 300, 600, 1200, 2700, 5400];
  return {
    registry,
    queueDepth: new Gauge({ name: 'wrench_queue_depth', help: 'Jobs in a queue by state', labelNames: ['queue', 'state'], registers: [registry] }),
    queueOldestAge: new Gauge({
      name: 'wrench_queue_oldest_waiting_seconds',
      help: 'Age of the oldest job waiting in a queue (0 when none waits)',
      labelNames: ['queue'],
      registers: [registry],
    }),
    runs: new Counter({ name: 'wrench_runs_total', help: 'Finished runs by category and outcome', labelNames: ['category', 'outcome'], registers: [registry] }),
    runDuration: new Histogram({
      name: 'wrench_run_duration_seconds',
      help: 'Wall-clock duration of whole runs by category',
      labelNames: ['category'],
      buckets: durationBuckets,
      registers: [registry],
    }),
    phaseDuration: new Histogram({
      name: 'wrench_run_phase_duration_seconds',
      help: 'Duration of run phases (preparing, working, verifying, publishing, queued)',
      labelNames: ['phase'],
      buckets: durationBuckets,
      registers: [registry],
    }),
    modelCallDuration: new Histogram({
      name: 'wrench_model_call_duration_seconds',
      help: 'Latency of one model call (request sent to whole answer received), by outcome (ok or error)',
      labelNames: ['outcome'],
      buckets: [0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300],
      registers: [registry],
    }),
    modelBudgetWait: new Histogram({
      name: 'wrench_model_budget_wait_seconds',
      help: "Time one model call attempt waited for the fleet's shared model rate budget (0 when it did not wait), by model",
      labelNames: ['model'],
      buckets: [0, 0.5, 1, 5, 15, 30, 60, 120, 300, 600],
      registers: [registry],
    }),
    modelBudgetWaiting: new Gauge({
      name: 'wrench_model_budget_waiting_calls',
      help: "Model calls of this process waiting now for the fleet's shared model rate budget, by model (the autoscaler adds no worker while any waits)",
      labelNames: ['model'],
      registers: [registry],
    }),
    timeToAcknowledge: new Histogram({
      name: 'wrench_time_to_acknowledge_seconds',
      help: 'From the mention being posted in Slack to Wrench acknowledging it (its :eyes: queued, or its first reply)',
      buckets: [0.25, 0.5, 1, 2, 3, 5, 10, 30],
      registers: [registry],
    }),
    runTokens: new Histogram({
      name: 'wrench_run_tokens',
      help: 'Model tokens (input, output and cache) used by one whole run, by category',
      labelNames: ['category'],
      buckets: [1e3, 1e4, 5e4, 1e5, 2.5e5, 5e5, 1e6, 2.5e6, 5e6, 1e7],
      registers: [registry],
    }),
    tokens: new Counter({ name: 'wrench_model_tokens_total', help: 'Model tokens used by runs, by kind', labelNames: ['kind'], registers: [registry] }),
    cost: new Counter({
      name: 'wrench_model_cost_usd_total',
      help: 'Estimated model cost of runs in US dollars',
      labelNames: ['category'],
      registers: [registry],
    }),
    apiErrors: new Counter({
      name: 'wrench_api_errors_total',
      help: 'Failed calls to outside APIs by service and HTTP status or error code',
      labelNames: ['service', 'code'],
      registers: [registry],
    }),
    apiRetries: new Counter({
      name: 'wrench_api_retries_total',
      help: 'Retried calls to outside APIs by service',
      labelNames: ['service'],
      registers: [registry],
    }),
    slackUndeliverable: new Counter({
      name: 'wrench_slack_undeliverable_total',
      help: 'Thread messages given up on after Slack refused them until the delivery deadline (or for good), by Slack error',
      labelNames: ['error'],
      registers: [registry],
    }),
    slackQuarantined: new Counter({
      name: 'wrench_slack_quarantined_total',
      help: 'Thread messages set aside because the outbox could not read them or keep track of them (listed by wrench doctor)',
      registers: [registry],
    }),
    sandboxFailures: new Counter({
      name: 'wrench_sandbox_failures_total',
      help: 'Sandboxed commands that could not run or were stopped by a limit, by reason',
      labelNames: ['reason'],
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** The process's metrics: clients and runners count into it wherever they run. */
export const metrics: Metrics = createMetrics();
