// Same-protocol Chat Completions: the caller's bytes go upstream with only `model` rewritten,
// plus `stream_options.include_usage: true` on streams so that the gateway can meter; the
// usage chunk that this adds is cut from the stream again when the caller did not ask for it.
import type { PassthroughStream } from '../codec.js';
import type { FastPathMemo } from '../fast-path/codec-fast-path.js';
import { EventShape } from '../framing/event-shape.js';
import { isJsonObject, setTopLevelField, type JsonObject } from '../framing/json-field.js';
import { bodyWithModel } from '../request-members.js';
import { streamUsageRequested } from './request.js';
import { SsePassthroughStream } from './sse-passthrough.js';
import { decodeUsage } from './usage.js';
import { WholeEventsPassthrough, sseEventEnds } from '../framing/whole-events.js';

export function passthroughBody(raw: string, body: unknown, upstreamModel: string, stream: boolean): string {
  const out = bodyWithModel(raw, body, upstreamModel);
  if (!stream || streamUsageRequested(body)) return out;
  // Other stream options the caller set are kept; only include_usage is added.
  const options = isJsonObject(body) && isJsonObject(body.stream_options) ? body.stream_options : {};
  return setTopLevelField(out, 'stream_options', JSON.stringify({ ...options, include_usage: true }), body);
}

function chunkUsage(data: JsonObject): ReturnType<typeof decodeUsage> {
  return decodeUsage(data.usage);
}

/** The extra chunk include_usage adds: no choices, only usage. */
function isUsageOnlyChunk(data: JsonObject): boolean {
  return Array.isArray(data.choices) && data.choices.length === 0;
}

export function createPassthroughStream(body: unknown, memo?: FastPathMemo): PassthroughStream {
  // Whole events only (framing/whole-events.ts); when cutting, the inner stream withholds them itself.
  const shape = memo === undefined ? null : (memo.usageEvent ??= new EventShape());
  return new WholeEventsPassthrough(new SsePassthroughStream(chunkUsage, streamUsageRequested(body) ? null : isUsageOnlyChunk, shape), sseEventEnds);
}
