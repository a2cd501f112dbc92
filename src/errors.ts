import { type ErrorDetail, renderError } from './error-words.js';

/**
 * Every code a `WrenchError` may carry, by area; one casing (snake_case). A new kind of failure gets its code here.
 */
export const WRENCH_ERROR_CODES = [
  // configuration and command line
  'config_invalid',
  'usage',
  'bad_role',
  // HTTP front door and queue
  'body_too_large',
  'invalid_job',
  'queue_unavailable',
  'redis_failed',
  'redis_missing',
  'redis_password_invalid',
  'redis_ca_without_tls',
  'redis_sentinel_config',
  'redis_cluster_config',
  'redis_ca_unreadable',
  // agent stops (AgentStopCode)
  'step_limit',
  'time_limit',
  'cost_limit',
  'token_limit',
  'cancelled',
  'refused',
  'context_exhausted',
  'model_failed',
  'no_answer',
  // the agent's questions to the requester
  'paused_run_invalid',
  // sandbox and verification
  'sandbox_spawn_failed',
  'sandbox_cwd_outside',
  'sandbox_cwd_missing',
  'verification_cancelled',
  'repository_checks_invalid',
  'dependency_key_files_too_many',
  'runtime_unavailable',
  // git and workspaces
  'git_failed',
  'lock_timeout',
  'invalid_branch',
  'invalid_commit',
  'invalid_ref',
  'invalid_repository',
  'push_blocked_secret',
  'invalid_git_base_url',
  'invalid_job_id',
  'invalid_workspace',
  'not_a_repository',
  'workspace_tampered',
  'repository_not_found',
  'base_branch_not_found',
  'branch_not_found',
  'branch_exists',
  'branch_moved',
  'branch_conflict',
  'push_failed',
  'pull_head_unavailable',
  'revert_conflict',
  'disk_full',
  // GitHub
  'github_not_configured',
  'github_app_credentials',
  'github_app_not_installed',
  'github_app_token_failed',
  // Slack
  'input_untrusted_url',
  'input_download_failed',
  'input_too_large',
  'image_not_supported',
  'image_unreadable',
  'image_too_large',
  'slack_upload_failed',
  'sign_in_failed',
  'sign_in_wrong_workspace',
  // PagerDuty and triage
  'pagerduty_not_configured',
  'pagerduty_failed',
  'triage_expired',
  'card_not_ready',
  'card_pending',
  'card_undeliverable',
  // monitoring
  'monitoring_missing_variable',
  'monitoring_missing_file',
  'monitoring_bad_url',
  'prometheus_bad_range',
  'prometheus_timeout',
  'prometheus_unreachable',
  'prometheus_bad_response',
  'prometheus_bad_query',
  'prometheus_error',
  'prometheus_result_too_large',
  'prometheus_deadline',
  'thread_pending',
  'slack_undeliverable',
] as const;

export type WrenchErrorCode = (typeof WRENCH_ERROR_CODES)[number];

/**
 * An error that crosses a boundary (Slack reply, webhook answer, CLI output).
 * `code` is stable and machine-readable; `message` says what happened and what to do next.
 */
export class WrenchError extends Error {
  /** What it says, as a key and its facts, for a Slack thread to say in its language (its message is the English). */
  readonly detail?: ErrorDetail;

  constructor(
    readonly code: WrenchErrorCode,
    message: string,
    options?: { cause?: unknown; detail?: ErrorDetail },
  ) {
    super(message, options);
    this.name = 'WrenchError';
    this.detail = options?.detail;
  }
}

/** A `code` error whose message is `detail` in English, and whose thread says it in its own language. */
export function wrenchErrorSaying(code: WrenchErrorCode, detail: ErrorDetail, options?: { cause?: unknown }): WrenchError {
  return new WrenchError(code, renderError(detail), { ...options, detail });
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
