// Same-protocol Responses: only `model` is rewritten; usage is read from the terminal event's
// response (response.completed / incomplete / failed), and every byte goes back unchanged.
import type { Usage } from '../../model/types.js';
import type { PassthroughStream } from '../codec.js';
import type { FastPathMemo } from '../fast-path/codec-fast-path.js';
import { EventShape } from '../framing/event-shape.js';
import { isJsonObject, type JsonObject } from '../framing/json-field.js';
import { SsePassthroughStream } from '../openai/sse-passthrough.js';
import { decodeUsage } from './usage.js';
import { WholeEventsPassthrough, sseEventEnds } from '../framing/whole-events.js';

function eventUsage(data: JsonObject): Usage | null {
  return isJsonObject(data.response) ? decodeUsage(data.response.usage) : null;
}

export function createPassthroughStream(memo?: FastPathMemo): PassthroughStream {
  const shape = memo === undefined ? null : (memo.usageEvent ??= new EventShape());
  return new WholeEventsPassthrough(new SsePassthroughStream(eventUsage, null, shape), sseEventEnds);
}
