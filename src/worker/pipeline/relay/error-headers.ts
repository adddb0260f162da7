// An upstream error relayed as is: which of its headers go with it, and how much of its body is kept.
import type { ProtocolName } from '../../../shared/model/types.js';

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
export function relayableHeaders(
  protocol: ProtocolName,
  headers: Record<string, string | string[] | undefined> | null,
  contentType: string,
): Record<string, string> {
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
