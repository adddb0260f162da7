// W3C Trace Context `traceparent` (https://www.w3.org/TR/trace-context/): read the caller's,
// write the one an upstream attempt is sent with, and make ids. Ids are random hex from one
// reused buffer (only for a traced request: the untraced path never comes here).
import { randomFillSync } from 'node:crypto';

export interface CallerContext {
  traceId: string;
  /** The caller's span: the parent of the gateway's server span. */
  spanId: string;
  sampled: boolean;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

/** The caller's context, or null for an absent or malformed header (the gateway then starts a trace). */
export function parseTraceparent(header: string): CallerContext | null {
  if (header === '') return null;
  const m = TRACEPARENT.exec(header.trim().toLowerCase());
  if (m === null) return null;
  const [, version, traceId, spanId, flags, rest] = m as unknown as [string, string, string, string, string, string | undefined];
  // Version ff is invalid; version 00 has nothing after the flags (later versions may).
  if (version === 'ff' || (version === '00' && rest !== undefined)) return null;
  if (traceId === ZERO_TRACE || spanId === ZERO_SPAN) return null;
  return { traceId, spanId, sampled: (parseInt(flags, 16) & 1) === 1 };
}

export function formatTraceparent(traceId: string, spanId: string, sampled: boolean): string {
  return `00-${traceId}-${spanId}-${sampled ? '01' : '00'}`;
}

const idBytes = Buffer.alloc(16);

/** A random id of `bytes` bytes (8: a span id, 16: a trace id) as lower-case hex, never all zeros. */
export function randomId(bytes: 8 | 16): string {
  for (;;) {
    randomFillSync(idBytes, 0, bytes);
    const hex = idBytes.toString('hex', 0, bytes);
    if (hex !== ZERO_TRACE && hex !== ZERO_SPAN) return hex;
  }
}
