// The record kept for an answered Responses request: this turn's own input items (not the
// history the gateway put before them), the Response object as the caller got it, and what
// the chain and the same-upstream rule need (the key, the lane, the upstream's own id).
import { randomBytes } from 'node:crypto';
import { isJsonObject, type JsonObject } from '../protocols/framing/json-field.js';
import { inputItems, type LaneIdentity } from './history.js';
import type { StoredResponse } from './stored-response.js';

/** `store` defaults to true on the Responses API: only an explicit false keeps nothing. */
export function wantsStore(body: JsonObject): boolean {
  return body.store !== false;
}

/** An id for a response the gateway answered from a lane that names none of its own (any but a Responses lane). */
export function mintResponseId(): string {
  return `resp_${randomBytes(24).toString('hex')}`;
}

export interface RecordSource {
  /** The caller's request body, as it came (before any history was put in it). */
  request: JsonObject;
  /** The Response object answered (non-stream: the body; stream: response.completed's `response`). */
  response: JsonObject;
  keyId: string;
  lane: LaneIdentity;
  /** The upstream's own response id on a Responses lane (it keeps state), else null. */
  upstreamId: string | null;
  nowMs: number;
  ttlMs: number;
}

/** The record to put, or null when the response has no id to keep it under. */
export function storedResponseOf(src: RecordSource): StoredResponse | null {
  const id = src.response.id;
  if (typeof id !== 'string' || id === '') return null;
  const previous = src.request.previous_response_id;
  // The answer says which previous response it continued, as OpenAI's does.
  const response = typeof previous === 'string' ? { ...src.response, previous_response_id: previous } : src.response;
  return {
    id,
    keyId: src.keyId,
    createdAtMs: src.nowMs,
    expiresAtMs: src.nowMs + src.ttlMs,
    lane: src.lane.lane,
    provider: src.lane.provider,
    laneProtocol: src.lane.protocol,
    upstreamId: src.upstreamId,
    previousId: typeof previous === 'string' ? previous : null,
    input: inputItems(src.request.input),
    response: isJsonObject(response) ? response : {},
  };
}
