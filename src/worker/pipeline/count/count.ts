// The token-count kind (kinds.ts COUNT): a count request is decoded into the ModelRequest its
// chat request would be (protocols/token-count.ts), routed and admitted like chat, and sent to
// the picked lane's own counting endpoint, translated both ways; a lane with none (OpenAI Chat
// Completions, Ollama) is answered by the gateway's documented estimate
// (model/token-count.ts), marked by the `x-gateway-token-count: estimate` header. No tokens
// are metered for a count (the request is): RelayState.usage stays null.
import type { ModelRequest } from '../../../shared/model/types.js';
import type { TokenCount } from '../../../shared/model/token-count.js';
import { COUNT_INGRESS, countAnswerHeaders, planCount, type CountIngress } from '../../../shared/protocols/token-count.js';
import type { LaneRuntime } from '../../runtime.js';
import type { OutgoingRequest } from '../../upstream/auth/upstream-auth.js';
import type { RequestContext } from '../context.js';
import { type Answer, wholeAnswer } from '../end/answer.js';
import { endUndecodable } from '../end/refused.js';
import { bufferedBody, RelayVerdict } from '../relay/relay.js';
import type { RelayState } from '../relay/relay-state.js';
import { kindOutgoing } from '../dispatch/kind-outgoing.js';

/** A count request as its kind's steps see it (RequestContext.kindState). */
export interface CountState {
  readonly ingress: CountIngress;
  readonly request: ModelRequest;
  /** The current attempt's reading of the lane's answer. */
  decodeAnswer: ((body: unknown) => TokenCount) | null;
}

/** After the target: the body decoded as its protocol's count request (a bad one is refused in the caller's shape). */
export function countDecodeStep(ctx: RequestContext): boolean {
  const ingress = COUNT_INGRESS[ctx.route!.count!];
  ctx.stream = false;
  let request: ModelRequest;
  try {
    request = ingress.decodeRequest(ctx.body, ctx.routeInfo);
  } catch (err) {
    return endUndecodable(ctx, err, 'count');
  }
  const state: CountState = { ingress, request, decodeAnswer: null };
  ctx.kindState = state;
  return true;
}

function stateOf(ctx: RequestContext): CountState {
  return ctx.kindState as CountState;
}

/** RequestKind.outgoing: the lane's counting request, or the estimate's answer for a lane with none. */
function countOutgoing(ctx: RequestContext, lane: LaneRuntime): OutgoingRequest | Answer {
  const state = stateOf(ctx);
  const plan = planCount(state.ingress, state.request, ctx.raw, ctx.body, lane.provider.codec.name, lane.compiled.upstreamModel);
  if (plan.kind === 'estimate') return wholeAnswer(200, countAnswerHeaders(plan.count), state.ingress.encodeAnswer(plan.count));
  state.decodeAnswer = plan.decodeAnswer;
  return kindOutgoing(ctx, lane, plan.request);
}

/** RequestKind.passBody and translateBody: the lane's count, in the caller's shape. */
function countAnswered(s: RelayState, ctx: RequestContext): RelayVerdict {
  const state = stateOf(ctx);
  let count: TokenCount;
  try {
    count = state.decodeAnswer!(JSON.parse(bufferedBody(s).toString('utf8')));
  } catch {
    return RelayVerdict.Unreadable;
  }
  s.answer = wholeAnswer(200, countAnswerHeaders(count), state.ingress.encodeAnswer(count));
  return RelayVerdict.Complete;
}

export const COUNT_EXCHANGE = { outgoing: countOutgoing, passBody: countAnswered, translateBody: countAnswered };
