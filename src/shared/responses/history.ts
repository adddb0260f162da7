// Conversation state for the Responses API on any lane: what a request with
// `previous_response_id` becomes on the lane picked for it. A Responses lane that served the
// previous turn keeps its own state, so it gets its own id for it passed through; any other
// lane gets the stored chain's items (each turn's input, then its output) before the request's
// own input, and no previous_response_id. `conversation` (OpenAI's Conversations API) lives
// only on an OpenAI Responses lane: any other refuses it with a 400 that says why.
import { GatewayError } from '../errors.js';
import type { ProtocolName } from '../model/types.js';
import { isJsonObject, type JsonObject } from '../protocols/framing/json-field.js';
import type { ResponseChain, StoredResponse } from './stored-response.js';

/** The lane an attempt goes to, as the stored records name the lane that served them. */
export interface LaneIdentity {
  lane: string;
  provider: string;
  protocol: ProtocolName;
}

export type StatePlan =
  /** No previous_response_id (nor conversation): the body goes as it is. */
  | { kind: 'none' }
  /** The lane keeps the state: the body with previous_response_id set to the lane's own id for that turn (or as the caller gave it). */
  | { kind: 'pass-through'; body: JsonObject }
  /** The stored history before the request's input, previous_response_id removed. */
  | { kind: 'history'; body: JsonObject }
  | { kind: 'refused'; error: GatewayError };

/** A request's `input` as items: a string is one user message. */
export function inputItems(input: unknown): unknown[] {
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: input }];
  return Array.isArray(input) ? input : [];
}

/**
 * The items of a chain (oldest first) as input for `lane`: each turn's input, then its output.
 * Items a turn's own lane made are kept as they were when `lane` is that lane; for any other,
 * item ids are dropped (an upstream refuses ids it did not make) and reasoning items too (the
 * opaque state of another upstream).
 */
export function historyItems(chain: readonly StoredResponse[], lane: LaneIdentity): unknown[] {
  const out: unknown[] = [];
  for (const r of chain) {
    const own = r.lane === lane.lane && r.provider === lane.provider;
    for (const item of r.input) out.push(own ? item : foreignItem(item));
    const output = Array.isArray(r.response.output) ? r.response.output : [];
    for (const item of output) {
      if (!own && isJsonObject(item) && item.type === 'reasoning') continue;
      out.push(own ? item : foreignItem(item));
    }
  }
  return out;
}

function foreignItem(item: unknown): unknown {
  if (!isJsonObject(item) || (item.id === undefined && item.status === undefined)) return item;
  const { id: _id, status: _status, ...rest } = item;
  return rest;
}

/** `body` with `history` before its own input and no previous_response_id. */
export function withHistory(body: JsonObject, history: unknown[]): JsonObject {
  const { previous_response_id: _prev, ...rest } = body;
  return { ...rest, input: [...history, ...inputItems(body.input)] };
}

/**
 * The plan for `body` (a Responses request) on `lane`. `chain`: what the store answered for
 * its previous_response_id (oldest first), or 'unavailable' when the store could not answer.
 */
export function planResponsesState(body: JsonObject, chain: ResponseChain | 'unavailable' | null, lane: LaneIdentity): StatePlan {
  const conversation = body.conversation;
  if (conversation !== undefined && conversation !== null && lane.protocol !== 'responses') {
    return refused(
      'untranslatable',
      `conversation cannot be served by the ${lane.protocol} protocol of the selected model: conversations are kept by OpenAI's Responses API; use previous_response_id, which the gateway keeps for any model`,
    );
  }
  const previous = body.previous_response_id;
  if (previous === undefined || previous === null) return { kind: 'none' };
  if (typeof previous !== 'string' || previous === '') return refused('invalid_request', 'previous_response_id must be a non-empty string');
  const responsesLane = lane.protocol === 'responses';
  if (chain === 'unavailable' || chain === null) {
    // The upstream may know it (a Responses lane keeps its own); no other lane can be given the history.
    return responsesLane
      ? { kind: 'pass-through', body }
      : refused('internal', 'the conversation state store is unavailable: previous_response_id cannot be served now');
  }
  if (chain.records.length === 0) {
    return responsesLane ? { kind: 'pass-through', body } : refused('invalid_request', `Previous response with id '${previous}' not found.`);
  }
  if (chain.missing !== null) {
    return refused(
      'invalid_request',
      `previous_response_id '${previous}' continues a response that is no longer stored ('${chain.missing}'): start the conversation again`,
    );
  }
  const newest = chain.records[chain.records.length - 1]!;
  if (responsesLane && newest.lane === lane.lane && newest.provider === lane.provider && newest.upstreamId !== null) {
    return { kind: 'pass-through', body: { ...body, previous_response_id: newest.upstreamId } };
  }
  return { kind: 'history', body: withHistory(body, historyItems(chain.records, lane)) };
}

function refused(kind: 'invalid_request' | 'untranslatable' | 'internal', message: string): StatePlan {
  return { kind: 'refused', error: new GatewayError(kind, message) };
}
