// Errors in Gemini's (Google API) shape: {"error":{"code":<status>,"message","status"}}.
import { ERROR_TABLE, statusFor, type ErrorKind } from '../../errors.js';
import type { EncodedError } from '../codec.js';
import { isJsonObject } from '../framing/json-field.js';

export function errorBody(kind: ErrorKind, message: string): string {
  return JSON.stringify({ error: { code: statusFor(kind, 'gemini'), message, status: ERROR_TABLE[kind].gemini } });
}

export function encodeGeminiError(kind: ErrorKind, message: string, retryAfterSecs?: number): EncodedError {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (retryAfterSecs !== undefined) headers['retry-after'] = String(Math.max(0, Math.ceil(retryAfterSecs)));
  return { status: statusFor(kind, 'gemini'), headers, body: errorBody(kind, message) };
}

export function geminiUpstreamErrorMessage(status: number, body: unknown): string {
  // Google APIs answer {"error":{...}}; some proxies wrap it in an array.
  const top = Array.isArray(body) ? body[0] : body;
  const e = isJsonObject(top) && isJsonObject(top.error) ? top.error : undefined;
  if (e !== undefined && typeof e.message === 'string') {
    return typeof e.status === 'string' ? `${e.status}: ${e.message}` : e.message;
  }
  return `upstream answered HTTP ${status}`;
}
