// Body readers shared by the codecs beyond json-field.ts: stop-sequence arrays, tool
// arguments as the object a wire wants, and base64 `data:` URLs.
import { GatewayError } from '../../errors.js';
import { expectArray, expectString, isJsonObject, type JsonObject } from './json-field.js';

export function optionalStringArray(obj: JsonObject, key: string, path: string): string[] | undefined {
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  const arr = expectArray(v, `${path}.${key}`);
  for (let i = 0; i < arr.length; i++) expectString(arr[i], `${path}.${key}[${i}]`);
  return arr as string[];
}

/**
 * Tool-call arguments (JSON text in the model) as an object. '' means no arguments. `kind`
 * says whose fault bad JSON is: the caller's history (invalid_request) or the upstream's
 * answer (upstream_error).
 */
export function argumentsObject(args: string, callId: string, kind: 'invalid_request' | 'upstream_error'): JsonObject {
  if (args.length === 0) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    parsed = undefined;
  }
  if (!isJsonObject(parsed)) throw new GatewayError(kind, `tool call ${callId}: arguments must be a JSON object`);
  return parsed;
}

/** Splits a `data:<media type>;base64,<data>` URL; undefined for any other URL. */
export function splitDataUrl(url: string): { mediaType: string; data: string } | undefined {
  const m = /^data:([^;,]+);base64,/.exec(url);
  return m === null ? undefined : { mediaType: m[1]!, data: url.slice(m[0].length) };
}
