import { base62Id } from '../shared/ids.js';

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

const DEFAULT_MESSAGES: Record<string, string> = {
  rate_limit_error: 'Number of request tokens has exceeded your per-minute rate limit',
  api_error: 'Internal server error',
  overloaded_error: 'Overloaded',
};

export function requestId(): string {
  return base62Id('req_01', 22);
}

export function errorType(status: number): string {
  return ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

/** The Messages API error body: `{ type: 'error', error: { type, message }, request_id }`. */
export function errorBody(status: number, message?: string): Record<string, unknown> {
  const type = errorType(status);
  return { type: 'error', error: { type, message: message ?? DEFAULT_MESSAGES[type] ?? type }, request_id: requestId() };
}
