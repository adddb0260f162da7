// Pieces of relaying an upstream answer that need no request state: reading usage from a
// same-protocol body, and the end-to-end headers of an upstream error relayed as is.
import type { Usage } from '../../shared/model/types.js';
import type { Codec } from '../../shared/protocols/codec.js';
import { topLevelValueText } from '../../shared/protocols/framing/json-field.js';

/**
 * Usage of a same-protocol non-stream body: only the usage field is parsed when the protocol
 * keeps usage in one field (the rest of the body may be large and is never needed).
 */
export function passthroughUsage(codec: Codec, text: string): Usage | null {
  try {
    const field = codec.usageField;
    if (field === null) return codec.usageFromResponse(JSON.parse(text));
    const value = topLevelValueText(text, field);
    return value === undefined ? null : codec.usageFromResponse({ [field]: JSON.parse(value) });
  } catch {
    return null; // an unreadable body is relayed as is and billed zero tokens
  }
}

/** Headers that describe one hop's connection or framing, never relayed. */
const HOP_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'date', 'server', 'upgrade', 'proxy-connection', 'te', 'trailer']);

/** An upstream answer's end-to-end headers, for relaying it as is. */
export function relayableHeaders(headers: Record<string, string | string[] | undefined> | null, contentType: string): Record<string, string> {
  const out: Record<string, string> = { 'content-type': contentType || 'application/json' };
  if (headers === null) return out;
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || HOP_HEADERS.has(name)) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** Bytes of an upstream error body kept for classifying and relaying it. */
export const ERROR_BODY_CAP_BYTES = 64 * 1024;
