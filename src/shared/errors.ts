// One table of the errors the gateway makes itself: status, and the error type each protocol
// puts in its own field, so that every vendor SDK raises its usual exception.
import type { ProtocolName } from './model/types.js';

export type ErrorKind =
  | 'invalid_request'
  | 'invalid_json'
  | 'untranslatable'
  | 'body_too_large'
  | 'unsupported_media_type'
  | 'route_not_found'
  | 'method_not_allowed'
  | 'model_not_found'
  | 'not_found'
  | 'unauthorized'
  | 'forbidden'
  | 'rate_limited'
  | 'insufficient_quota'
  | 'exhausted'
  | 'upstream_error'
  | 'upstream_timeout'
  | 'internal';

export interface ErrorSpec {
  status: number;
  openai: string; // error.type for openai and responses
  anthropic: string; // error.type
  gemini: string; // error.status
  bedrock: string; // x-amzn-ErrorType
}

export const ERROR_TABLE: Readonly<Record<ErrorKind, ErrorSpec>> = {
  invalid_request: {
    status: 400,
    openai: 'invalid_request_error',
    anthropic: 'invalid_request_error',
    gemini: 'INVALID_ARGUMENT',
    bedrock: 'ValidationException',
  },
  invalid_json: {
    status: 400,
    openai: 'invalid_request_error',
    anthropic: 'invalid_request_error',
    gemini: 'INVALID_ARGUMENT',
    bedrock: 'ValidationException',
  },
  untranslatable: {
    status: 400,
    openai: 'invalid_request_error',
    anthropic: 'invalid_request_error',
    gemini: 'INVALID_ARGUMENT',
    bedrock: 'ValidationException',
  },
  body_too_large: { status: 413, openai: 'invalid_request_error', anthropic: 'request_too_large', gemini: 'INVALID_ARGUMENT', bedrock: 'ValidationException' },
  unsupported_media_type: {
    status: 415,
    openai: 'invalid_request_error',
    anthropic: 'invalid_request_error',
    gemini: 'INVALID_ARGUMENT',
    bedrock: 'ValidationException',
  },
  route_not_found: { status: 404, openai: 'invalid_request_error', anthropic: 'not_found_error', gemini: 'NOT_FOUND', bedrock: 'ResourceNotFoundException' },
  method_not_allowed: {
    status: 405,
    openai: 'invalid_request_error',
    anthropic: 'invalid_request_error',
    gemini: 'INVALID_ARGUMENT',
    bedrock: 'ValidationException',
  },
  model_not_found: { status: 404, openai: 'invalid_request_error', anthropic: 'not_found_error', gemini: 'NOT_FOUND', bedrock: 'ResourceNotFoundException' },
  /** A resource the caller named (a stored response) does not exist for its key. */
  not_found: { status: 404, openai: 'invalid_request_error', anthropic: 'not_found_error', gemini: 'NOT_FOUND', bedrock: 'ResourceNotFoundException' },
  unauthorized: {
    status: 401,
    openai: 'authentication_error',
    anthropic: 'authentication_error',
    gemini: 'UNAUTHENTICATED',
    bedrock: 'UnrecognizedClientException',
  },
  forbidden: { status: 403, openai: 'permission_error', anthropic: 'permission_error', gemini: 'PERMISSION_DENIED', bedrock: 'AccessDeniedException' },
  rate_limited: { status: 429, openai: 'rate_limit_error', anthropic: 'rate_limit_error', gemini: 'RESOURCE_EXHAUSTED', bedrock: 'ThrottlingException' },
  insufficient_quota: {
    status: 429,
    openai: 'insufficient_quota',
    anthropic: 'insufficient_quota',
    gemini: 'RESOURCE_EXHAUSTED',
    bedrock: 'ServiceQuotaExceededException',
  },
  exhausted: { status: 503, openai: 'server_error', anthropic: 'overloaded_error', gemini: 'UNAVAILABLE', bedrock: 'ServiceUnavailableException' },
  upstream_error: { status: 502, openai: 'server_error', anthropic: 'api_error', gemini: 'INTERNAL', bedrock: 'InternalServerException' },
  upstream_timeout: { status: 504, openai: 'server_error', anthropic: 'api_error', gemini: 'DEADLINE_EXCEEDED', bedrock: 'ModelTimeoutException' },
  internal: { status: 500, openai: 'server_error', anthropic: 'api_error', gemini: 'INTERNAL', bedrock: 'InternalServerException' },
};

/** A rejection the gateway makes itself. `status` overrides the table (e.g. quota is 400 on Bedrock). */
export class GatewayError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly retryAfterSecs?: number,
    readonly status: number = ERROR_TABLE[kind].status,
  ) {
    super(message);
  }
}

/** Status a protocol uses for a kind (Bedrock reports quota exhaustion as 400, per the spec). */
export function statusFor(kind: ErrorKind, protocol: ProtocolName): number {
  if (kind === 'insufficient_quota' && protocol === 'bedrock') return 400;
  return ERROR_TABLE[kind].status;
}
