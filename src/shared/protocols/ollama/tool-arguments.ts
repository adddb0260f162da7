// Ollama tool calls carry arguments as a JSON object; the model carries JSON text.
import { GatewayError } from '../../errors.js';
import { isJsonObject } from '../framing/json-field.js';

/** Object (or, leniently, text) on the Ollama wire -> JSON text. */
export function argumentsText(v: unknown): string {
  if (v === undefined || v === null) return '{}';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/**
 * JSON text -> the object Ollama wants; empty text is a call without arguments. `kind` says
 * whose text it is: the caller's history (invalid_request) or the upstream's answer (upstream_error).
 */
export function argumentsObject(text: string, callId: string, kind: 'invalid_request' | 'upstream_error'): Record<string, unknown> {
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new GatewayError(kind, `arguments of tool call ${callId} are not valid JSON`);
  }
  if (!isJsonObject(parsed)) throw new GatewayError(kind, `arguments of tool call ${callId} are not a JSON object`);
  return parsed;
}
