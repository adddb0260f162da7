// The Responses kind (kinds.ts RESPONSES): chat's steps on POST /v1/responses, plus the
// conversation state the gateway keeps (decision 241). Before dispatch, a previous_response_id
// is looked up in the store (its chain, oldest first: the request parks on main's answer);
// each attempt then plans the body for its lane (shared/responses/history.ts): a Responses lane
// that served the previous turn gets its own id passed through, any other lane the stored
// history before the input; `conversation` off a Responses lane is refused saying why. A
// response the caller lets be stored (`store` not false) is put by the RecordingClient before
// its last bytes go out; on a lane that names no response of its own the caller sees an id the
// gateway minted (minted-codec.ts).
import type { Codec } from '../../../shared/protocols/codec.js';
import { CODECS } from '../../../shared/protocols/index.js';
import { isJsonObject, type JsonObject } from '../../../shared/protocols/framing/json-field.js';
import { NO_STRING_SPAN, type StringSpan } from '../../../shared/protocols/framing/top-level-members.js';
import { planResponsesState, type LaneIdentity } from '../../../shared/responses/history.js';
import { mintResponseId, wantsStore } from '../../../shared/responses/record.js';
import type { ResponseChain, ResponsesResult } from '../../../shared/responses/stored-response.js';
import type { Buffer } from 'node:buffer';
import type { LaneRuntime } from '../../runtime.js';
import type { OutgoingRequest } from '../../upstream/auth/upstream-auth.js';
import { Parked, type RequestContext } from '../context.js';
import { buildOutgoing } from '../dispatch/outgoing.js';
import { passedBody, translatedBody } from '../relay/relay.js';
import { resumeAfterStep } from '../steps.js';
import { mintedIdResponsesCodec } from './minted-codec.js';
import { RecordingClient } from './recording-client.js';

/** A Responses request's state as its steps see it (RequestContext.kindState). */
export interface ResponsesState {
  /** The caller's body as it came: what is stored, and what each attempt plans from. */
  readonly body: JsonObject;
  readonly raw: string;
  readonly bytes: Buffer | null;
  readonly head: unknown;
  readonly modelSpan: StringSpan;
  /** The store's chain for previous_response_id; null when the request names none. */
  chain: ResponseChain | 'unavailable' | null;
  /** The lane of the current attempt (what the record names). */
  lane: LaneIdentity | null;
  /** The current attempt's lane is a Responses lane: the answer's id is its own. */
  laneKeepsState: boolean;
  /** The caller's codec on any other lane (made on the first such attempt). */
  minted: Codec | null;
}

/** Before dispatch: the body kept as it came, the store's chain for previous_response_id, the recording client when it is stored. */
export function responsesStateStep(ctx: RequestContext): boolean {
  const body = ctx.body;
  if (!isJsonObject(body)) return true; // decode refused anything else
  const state: ResponsesState = {
    body,
    raw: ctx.raw,
    bytes: ctx.bytes,
    head: ctx.head,
    modelSpan: ctx.modelSpan,
    chain: null,
    lane: null,
    laneKeepsState: false,
    minted: null,
  };
  ctx.kindState = state;
  if (wantsStore(body)) ctx.client = new RecordingClient(ctx.client, ctx, state, ctx.runtime.config.limits.translateBodyCapBytes);
  const previous = body.previous_response_id;
  if (typeof previous !== 'string' || previous === '') return true;
  ctx.parked = Parked.Promise;
  ctx.deps.responses.call({ kind: 'chain', id: previous, keyId: ctx.keyId }).then(
    (result) => chainAnswered(ctx, state, result),
    () => chainAnswered(ctx, state, null),
  );
  return false;
}

function chainAnswered(ctx: RequestContext, state: ResponsesState, result: ResponsesResult | null): void {
  state.chain = result !== null && result.ok && result.kind === 'chain' ? result.chain : 'unavailable';
  resumeAfterStep(ctx);
}

/** RequestKind.outgoing: the body planned for the lane, then chat's request. */
function responsesOutgoing(ctx: RequestContext, lane: LaneRuntime): OutgoingRequest {
  const state = ctx.kindState as ResponsesState;
  const identity: LaneIdentity = { lane: lane.compiled.name, provider: lane.provider.compiled.name, protocol: lane.provider.codec.name };
  const plan = planResponsesState(state.body, state.chain, identity);
  if (plan.kind === 'refused') throw plan.error;
  useBody(ctx, state, plan.kind === 'none' ? null : plan.body);
  state.lane = identity;
  state.laneKeepsState = lane.provider.codec === CODECS.responses;
  ctx.codec = state.laneKeepsState ? CODECS.responses : (state.minted ??= mintedIdResponsesCodec(mintResponseId()));
  return buildOutgoing(ctx, lane);
}

/** The attempt's body: the caller's as it came (null), or the one planned for the lane. */
function useBody(ctx: RequestContext, state: ResponsesState, planned: JsonObject | null): void {
  ctx.decoded = null;
  ctx.heldStateToken = null;
  if (planned === null) {
    ctx.wholeBody = state.body;
    ctx.rawText = state.raw;
    ctx.bytes = state.bytes;
    ctx.head = state.head;
    ctx.modelSpan = state.modelSpan;
    return;
  }
  ctx.wholeBody = planned;
  ctx.rawText = JSON.stringify(planned);
  ctx.bytes = null;
  ctx.head = planned;
  ctx.modelSpan = NO_STRING_SPAN;
}

export const RESPONSES_EXCHANGE = { outgoing: responsesOutgoing, passBody: passedBody, translateBody: translatedBody };
