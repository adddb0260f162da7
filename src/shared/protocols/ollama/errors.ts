// Ollama's error shape: {"error":"..."} (the SDK raises ResponseError with that text).
import { statusFor, type ErrorKind } from '../../errors.js';
import type { EncodedError } from '../codec.js';
import { isJsonObject } from '../framing/json-field.js';

export function encodeError(kind: ErrorKind, message: string, retryAfterSecs?: number): EncodedError {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (retryAfterSecs !== undefined) headers['retry-after'] = String(Math.max(0, Math.ceil(retryAfterSecs)));
  return { status: statusFor(kind, 'ollama'), headers, body: JSON.stringify({ error: message }) };
}

/** The mid-stream error line. */
export function errorLine(message: string): string {
  return `${JSON.stringify({ error: message })}\n`;
}

export function upstreamErrorMessage(status: number, body: unknown): string {
  if (isJsonObject(body) && typeof body.error === 'string') return body.error;
  return `upstream returned HTTP ${status}`;
}
