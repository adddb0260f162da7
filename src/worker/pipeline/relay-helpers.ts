// Pieces of relaying an upstream answer that need no request state: reading usage from a
// same-protocol body, joining a batch of binary frames, and the allow-listed headers of an
// upstream error relayed as is.
import { Buffer } from 'node:buffer';
import type { ProtocolName, Usage } from '../../shared/model/types.js';
import type { Codec } from '../../shared/protocols/codec.js';
import { topLevelValueText } from '../../shared/protocols/framing/json-field.js';
import { UsageShape } from '../../shared/protocols/framing/usage-shape.js';
import type { LaneRuntime } from '../runtime.js';

/**
 * Usage of a same-protocol non-stream body: only the usage field is parsed when the protocol
 * keeps usage in one field (the rest of the body may be large and is never needed), and only
 * read in place when the lane's bodies keep one shape (`lane.usageBody`, usage-shape.ts).
 */
export function passthroughUsage(codec: Codec, body: string | Buffer, lane: LaneRuntime | null = null): Usage | null {
  try {
    const field = codec.usageField;
    if (field !== null && lane !== null) {
      const shape = (lane.usageBody ??= new UsageShape(field));
      const usage = typeof body === 'string' ? shape.read(body) : shape.readBytes(body);
      return usage === null ? null : codec.usageFromResponse(usage);
    }
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (field === null) return codec.usageFromResponse(JSON.parse(text));
    const value = topLevelValueText(text, field);
    return value === undefined ? null : codec.usageFromResponse({ [field]: JSON.parse(value) });
  } catch {
    return null; // an unreadable body is relayed as is and billed zero tokens
  }
}

/**
 * A batch of binary frames as one write. The Bedrock writer carves consecutive frames side by
 * side out of its slab and never rewrites them, so a batch is usually one run of bytes already:
 * then it is one view over them, not a copy; anything else is concatenated.
 */
export function joined(parts: readonly Uint8Array[]): Uint8Array {
  const first = parts[0]!;
  let end = first.byteOffset + first.byteLength;
  for (let i = 1; i < parts.length; i++) {
    const part = parts[i]!;
    if (part.buffer !== first.buffer || part.byteOffset !== end) return Buffer.concat(parts);
    end += part.byteLength;
  }
  return new Uint8Array(first.buffer, first.byteOffset, end - first.byteOffset);
}

/**
 * The upstream headers a relayed error may carry, per protocol: what the vendors' SDKs read to
 * decide a retry or raise the right exception (issue 15). Everything else an upstream sends
 * (`set-cookie`, organisation and project ids, the provider account's rate-limit headers,
 * request ids that correlate the gateway's account) stays behind, on errors as on successes
 * (a success carries no upstream header at all).
 */
const RELAYED_HEADERS: Readonly<Record<ProtocolName, ReadonlySet<string>>> = {
  openai: new Set(['retry-after', 'retry-after-ms', 'x-should-retry']),
  responses: new Set(['retry-after', 'retry-after-ms', 'x-should-retry']),
  anthropic: new Set(['retry-after', 'retry-after-ms', 'x-should-retry']),
  gemini: new Set(['retry-after']),
  bedrock: new Set(['retry-after', 'x-amzn-errortype']),
  ollama: new Set(['retry-after']),
};

/** An upstream error's headers for relaying it as is: content type and the protocol's allow-list. */
export function relayableHeaders(protocol: ProtocolName, headers: Record<string, string | string[] | undefined> | null, contentType: string): Record<string, string> {
  const out: Record<string, string> = { 'content-type': contentType || 'application/json' };
  if (headers === null) return out;
  const allowed = RELAYED_HEADERS[protocol];
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || !allowed.has(name)) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** Bytes of an upstream error body kept for classifying and relaying it. */
export const ERROR_BODY_CAP_BYTES = 64 * 1024;
