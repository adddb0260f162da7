// Errors in Anthropic's shape: {"type":"error","error":{"type","message"}}.
import { ERROR_TABLE, statusFor, type ErrorKind } from '../../errors.js';
import type { EncodedError } from '../codec.js';
import { isJsonObject } from '../framing/json-field.js';

export function errorBody(kind: ErrorKind, message: string): string {
  return JSON.stringify({ type: 'error', error: { type: ERROR_TABLE[kind].anthropic, message } });
}

export function encodeAnthropicError(kind: ErrorKind, message: string, retryAfterSecs?: number): EncodedError {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (retryAfterSecs !== undefined) headers['retry-after'] = String(Math.max(0, Math.ceil(retryAfterSecs)));
  return { status: statusFor(kind, 'anthropic'), headers, body: errorBody(kind, message) };
}

export function anthropicUpstreamErrorMessage(status: number, body: unknown): string {
  const e = isJsonObject(body) && isJsonObject(body.error) ? body.error : undefined;
  if (e !== undefined && typeof e.message === 'string') {
    return typeof e.type === 'string' ? `${e.type}: ${e.message}` : e.message;
  }
  return `upstream answered HTTP ${status}`;
}
