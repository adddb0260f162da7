// Errors in Bedrock's (AWS restJson) shape: {"message"} with the error's name in the
// x-amzn-errortype header, which the AWS SDK turns into the exception class.
import { ERROR_TABLE, statusFor, type ErrorKind } from '../../errors.js';
import type { EncodedError } from '../codec.js';
import { isJsonObject } from '../framing/json-field.js';

export function encodeBedrockError(kind: ErrorKind, message: string, retryAfterSecs?: number): EncodedError {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-amzn-errortype': ERROR_TABLE[kind].bedrock,
  };
  if (retryAfterSecs !== undefined) headers['retry-after'] = String(Math.max(0, Math.ceil(retryAfterSecs)));
  return { status: statusFor(kind, 'bedrock'), headers, body: JSON.stringify({ message }) };
}

/**
 * The exception a converse-stream can carry mid-stream (the SDK knows only these five as
 * stream members), by kind.
 */
export function streamExceptionType(kind: ErrorKind): string {
  switch (kind) {
    case 'rate_limited':
    case 'insufficient_quota':
      return 'throttlingException';
    case 'exhausted':
      return 'serviceUnavailableException';
    case 'invalid_request':
    case 'invalid_json':
    case 'untranslatable':
    case 'body_too_large':
    case 'unsupported_media_type':
      return 'validationException';
    case 'upstream_error':
    case 'upstream_timeout':
      return 'modelStreamErrorException';
    default:
      return 'internalServerException';
  }
}

export function bedrockUpstreamErrorMessage(status: number, body: unknown): string {
  // restJson errors say `message`; some services spell it `Message`.
  if (isJsonObject(body)) {
    const message = typeof body.message === 'string' ? body.message : typeof body.Message === 'string' ? body.Message : undefined;
    if (message !== undefined) return message;
  }
  return `upstream answered HTTP ${status}`;
}
