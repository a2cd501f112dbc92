import type { Logger } from '../../src/logging/logger.js';

export interface ShutdownStepOptions {
  /** @default the bound every step gets (WRENCH_SHUTDOWN_STEP_SECONDS) */
  boundMs?: number;
  /** Called once the step is out of time, to drop what it still waits on (disconnect instead of quit); not awaited. */
  onCut?: () => unknown;
}

/** How a shutdown went: the steps that did not finish within their bound (the process then exits non-zero). */
export interface ShutdownOutcome {
  cut: string[];
}

/**
 * Shutdown as named steps taken in turn, each within its own bound: a step still waiting when its time is over (on a
 * Redis that does not answer, a connection still looking for a new primary) is logged by name and left behind, and
 * shutdown goes on with the next. A step that fails is logged and shutdown goes on too.
 */
export class ShutdownSteps {
  readonly cut: string[] = [];

  constructor(
    private readonly logger: Logger,
    private readonly boundMs: number,
  ) {}

  async run(name: string, step: () => unknown, options: ShutdownStepOptions = {}): Promise<void> {
    const boundMs = options.boundMs ?? this.boundMs;
    let timer: NodeJS.Timeout | undefined;
    const outOfTime = new Promise<'cut'>((resolve) => {
      timer = setTimeout(() => resolve('cut'), boundMs);
    });
    const finished = Promise.resolve()
      .then(step)
      .then(
        () => 'finished' as const,
        (error: unknown) => {
          this.logger.warn({ err: error, step: name }, `shutdown step ${name} failed`);
          return 'finished' as const;
        },
      );
    const outcome = await Promise.race([finished, outOfTime]);
    clearTimeout(timer);
    if (outcome === 'finished') return;
    this.cut.push(name);
    this.logger.error({ step: name, boundMs }, `shutdown step ${name} did not finish within ${boundMs} ms`);
    // Not awaited: dropping a connection can wait on the same Redis; the process exits soon either way.
    void Promise.resolve()
      .then(options.onCut)
      .catch((error: unknown) => this.logger.warn({ err: error, step: name }, `shutdown step ${name}: could not drop what it waited on`));
  }

  outcome(): ShutdownOutcome {
    return { cut: [...this.cut] };
  }
}
