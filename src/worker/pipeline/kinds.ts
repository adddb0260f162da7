// The request kinds: each is the list of steps its requests run, in order (steps.ts runs them).
// A kind is data, compiled once: what differs between a chat request and a listing is which
// steps they run, not a branch inside the steps.
import { Disposition } from '../../shared/routing/attempt-outcome.js';
import { admitStep } from './admit/admit.js';
import { authenticateStep } from './authenticate/authenticate.js';
import type { RequestContext } from './context.js';
import { decodeStep } from './decode/decode.js';
import { dispatchStep } from './dispatch/dispatch.js';
import { type Answer, errorAnswer } from './end/answer.js';
import { end } from './end/end.js';
import { gateStep } from './gate/gate.js';
import { listingAnswerStep, listingRouteStep, showStep } from './listing/listing.js';
import { routeStep } from './route/route.js';
import type { Step } from './steps.js';
import { targetStep } from './target/target.js';
import type { LaneRuntime } from '../runtime.js';
import type { OutgoingRequest } from '../upstream/auth/upstream-auth.js';
import { buildOutgoing } from './dispatch/outgoing.js';
import { passedBody, translatedBody, type RelayVerdict } from './relay/relay.js';
import type { RelayState } from './relay/relay-state.js';
import { countDecodeStep, COUNT_EXCHANGE } from './count/count.js';
import { kindRouteStep } from './route/kind-route.js';
import { embeddingsDecodeStep, EMBEDDINGS_EXCHANGE } from './embeddings/embeddings.js';
import { responsesStateStep, RESPONSES_EXCHANGE } from './responses/state.js';
import { storedResponseStep } from './responses/stored.js';

export interface RequestKind {
  readonly name: string;
  readonly steps: readonly Step[];
  /**
   * The attempt's upstream request to `lane`; or the answer itself when the kind needs no
   * upstream call there (a count estimated for a lane with no counting endpoint). Throws when
   * the request cannot go to the lane (a GatewayError: its answer).
   */
  outgoing(ctx: RequestContext, lane: LaneRuntime): OutgoingRequest | Answer;
  /** A buffered success answer from a lane of the caller's protocol: RelayState.answer set, or why not. */
  passBody(s: RelayState, ctx: RequestContext): RelayVerdict;
  /** A buffered success answer from a lane of another protocol. */
  translateBody(s: RelayState, ctx: RequestContext): RelayVerdict;
  /** The caller went away while no attempt was in flight. */
  onCallerAbort(ctx: RequestContext): void;
  /** The body grew past the cap while it was read. */
  onBodyTooLarge(ctx: RequestContext): void;
}

function callerAborted(ctx: RequestContext): void {
  end(ctx, Disposition.CallerAbort, null);
}

function bodyTooLarge(ctx: RequestContext): void {
  end(ctx, Disposition.InvalidRequest, errorAnswer('body_too_large', `the request body is larger than ${ctx.runtime.config.limits.maxBodyBytes} bytes`));
}

/** How a kind's requests go upstream and how their buffered answers are read: chat's by default. */
interface KindExchange {
  outgoing: RequestKind['outgoing'];
  passBody: RequestKind['passBody'];
  translateBody: RequestKind['translateBody'];
}

const CHAT_EXCHANGE: KindExchange = { outgoing: buildOutgoing, passBody: passedBody, translateBody: translatedBody };

function kind(name: string, steps: readonly Step[], exchange: KindExchange = CHAT_EXCHANGE): RequestKind {
  // The steps stay a plain array: V8 reads a frozen array's elements through its generic keyed
  // load (about 69 instructions a step).
  return Object.freeze({ name, steps, ...exchange, onCallerAbort: callerAborted, onBodyTooLarge: bodyTooLarge });
}

/** A chat (or completion) request in any of the six protocols, to a pool or a lane. */
export const CHAT = kind('chat', [routeStep, authenticateStep, decodeStep, targetStep, admitStep, gateStep, dispatchStep]);
/**
 * A Responses request (POST /v1/responses): chat, with the conversation state the gateway
 * keeps -- previous_response_id resolved before dispatch, the body planned per lane, the
 * answer stored unless `store: false` (responses/state.ts).
 */
export const RESPONSES = kind(
  'responses',
  [routeStep, authenticateStep, decodeStep, targetStep, admitStep, gateStep, responsesStateStep, dispatchStep],
  RESPONSES_EXCHANGE,
);
/** GET / DELETE of a stored response (and its input items): answered from the store for the key that made it. */
export const STORED_RESPONSE = kind('stored-response', [authenticateStep, storedResponseStep]);
/**
 * A token count (Anthropic count_tokens, Gemini countTokens, Responses input_tokens, Bedrock
 * CountTokens): routed and admitted like chat (a request against the rate limits), sent to the
 * lane's counting endpoint or estimated where it has none (count/count.ts); metered as a
 * request with no tokens.
 */
export const COUNT = kind('count', [kindRouteStep, authenticateStep, decodeStep, targetStep, countDecodeStep, admitStep, dispatchStep], COUNT_EXCHANGE);
/**
 * An embeddings request (OpenAI, Gemini's two forms, Ollama's two): routed, admitted and
 * metered like chat (input tokens at the lane's rate card), translated across the three
 * protocols with embeddings (embeddings/embeddings.ts).
 */
export const EMBEDDINGS = kind(
  'embeddings',
  [kindRouteStep, authenticateStep, decodeStep, targetStep, embeddingsDecodeStep, admitStep, dispatchStep],
  EMBEDDINGS_EXCHANGE,
);
/** A model listing (GET): answered by the gateway from its config, as the key may see it. */
export const LISTING = kind('listing', [listingRouteStep, authenticateStep, listingAnswerStep]);
/** Ollama's POST /api/show: a listing with a body. */
export const SHOW = kind('show', [routeStep, authenticateStep, decodeStep, showStep]);
/** An answer of the edge (unknown path, wrong method, shed...): made by whoever makes the context. */
export const EDGE = kind('edge', []);
