// Counting latency the way LLM operators read it, into the shared histograms of the (pool,
// lane) that served (src/shared/metrics/catalog.ts): time to first token when the first byte of
// a successful answer is written, the attempt's duration when it ends, and at the request's end
// the time per output token and the output rate. Each call is a bucket search and two atomic
// adds: nothing allocated, no message sent. Times are performance.now() readings in ms.
import type { LatencySlots } from '../../shared/config/compiled.js';
import { PROTOCOL_INDEX } from '../../shared/metrics/catalog.js';
import type { ProtocolName } from '../../shared/model/types.js';
import type { SharedState } from '../../shared/sab/index.js';

/** The first byte of a successful answer was written `firstByteMs`; the request arrived `startedMs`. */
export function recordFirstToken(shared: SharedState, slots: LatencySlots, protocol: ProtocolName, startedMs: number, firstByteMs: number): void {
  shared.metrics.observe(slots.firstToken[PROTOCOL_INDEX[protocol]]!, (firstByteMs - startedMs) / 1000);
}

/** One upstream attempt, sent at `sentMs`, ended at `endedMs` (any outcome). */
export function recordAttempt(shared: SharedState, attemptDurationSlot: number, sentMs: number, endedMs: number): void {
  shared.metrics.observe(attemptDurationSlot, (endedMs - sentMs) / 1000);
}

/**
 * A successful answer ended at `endedMs` with `outputTokens` (0 when no usage was reported).
 * The output rate is counted for every answer with output tokens; the time per output token
 * only for a stream of two or more (a whole body's tokens all arrive at its first byte).
 */
export function recordCompletion(
  shared: SharedState,
  slots: LatencySlots,
  protocol: ProtocolName,
  startedMs: number,
  firstByteMs: number,
  endedMs: number,
  outputTokens: number,
  streamed: boolean,
): void {
  if (!(outputTokens > 0)) return;
  const p = PROTOCOL_INDEX[protocol];
  const totalMs = endedMs - startedMs;
  if (totalMs > 0) shared.metrics.observe(slots.tokensPerSecond[p]!, (outputTokens * 1000) / totalMs);
  if (streamed && outputTokens >= 2 && firstByteMs > 0) shared.metrics.observe(slots.perOutputToken[p]!, (endedMs - firstByteMs) / 1000 / (outputTokens - 1));
}
