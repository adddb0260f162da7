// OpenAI's error shape, shared by Chat Completions and Responses:
// {"error":{"message","type","param","code"}}. The SDK raises its typed exception from the
// status and reads `type`/`code`; `code` carries the gateway's error kind.
import { ERROR_TABLE, statusFor, type ErrorKind } from '../../errors.js';
import type { ProtocolName } from '../../model/types.js';
import type { EncodedError } from '../codec.js';
import { isJsonObject } from '../framing/json-field.js';

export function errorObject(kind: ErrorKind, message: string): { message: string; type: string; param: null; code: string } {
  return { message, type: ERROR_TABLE[kind].openai, param: null, code: kind };
}

export function encodeOpenAiError(protocol: ProtocolName, kind: ErrorKind, message: string, retryAfterSecs?: number): EncodedError {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (retryAfterSecs !== undefined) headers['retry-after'] = String(Math.max(0, Math.ceil(retryAfterSecs)));
  return {
    status: statusFor(kind, protocol),
    headers,
    body: JSON.stringify({ error: errorObject(kind, message) }),
  };
}

// Upstream messages can quote a (partly masked) provider key, e.g. "Incorrect API key
// provided: sk-abc***xyz"; key-shaped words are cut before the message goes anywhere.
const KEY_LIKE = /\b(?:sk|rk|pk|sess)-[A-Za-z0-9_*-]{4,}/g;

function redactKeys(message: string): string {
  return message.replace(KEY_LIKE, '[redacted]');
}

/** `{"error":{"message"}}` (also a bare `{"error":"..."}` from compatible hosts), else the status. */
export function openAiUpstreamErrorMessage(status: number, body: unknown): string {
  if (isJsonObject(body)) {
    const err = body.error;
    if (isJsonObject(err) && typeof err.message === 'string') return redactKeys(err.message);
    if (typeof err === 'string') return redactKeys(err);
    if (typeof body.message === 'string') return redactKeys(body.message);
  }
  return `upstream returned HTTP ${status}`;
}
