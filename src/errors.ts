/**
 * An error that crosses a boundary (Slack reply, webhook answer, CLI output).
 * `code` is stable and machine-readable; `message` says what happened and what to do next.
 */
export class WrenchError extends Error {
  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'WrenchError';
  }
}

export function isWrenchError(error: unknown): error is WrenchError {
  return error instanceof WrenchError;
}

/** The text a person may see for any error: never a stack trace. */
export function describeError(error: unknown): string {
  if (error instanceof WrenchError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}
