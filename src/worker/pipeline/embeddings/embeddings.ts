// The embeddings kind (kinds.ts EMBEDDINGS): OpenAI /v1/embeddings, Gemini :embedContent and
// :batchEmbedContents, Ollama /api/embed and /api/embeddings, decoded into the embedding model
// (model/embeddings.ts), routed through pools like chat (an embedding model is a lane), admitted
// and metered: the input tokens the lane reported (or the gateway's estimate, marked by the
// `x-gateway-token-count: estimate` header) at the lane's rate card. A lane of the route's own
// protocol gets the caller's body with the model changed and its answer goes back as it came.
import type { EmbeddingRequest, EmbeddingResponse, EmbeddingUsage } from '../../../shared/model/embeddings.js';
import { TOKEN_COUNT_ESTIMATE, TOKEN_COUNT_HEADER } from '../../../shared/model/token-count.js';
import { EMBEDDINGS_INGRESS, embeddingsUsage, planEmbeddings, type EmbeddingsIngress, type EmbeddingsPlan } from '../../../shared/protocols/embeddings.js';
import type { LaneRuntime } from '../../runtime.js';
import type { OutgoingRequest } from '../../upstream/auth/upstream-auth.js';
import type { RequestContext } from '../context.js';
import { wholeAnswer } from '../end/answer.js';
import { endUndecodable } from '../end/refused.js';
import { bufferedBody, RelayVerdict } from '../relay/relay.js';
import type { RelayState } from '../relay/relay-state.js';
import { kindOutgoing } from '../dispatch/kind-outgoing.js';

/** An embeddings request as its kind's steps see it (RequestContext.kindState). */
export interface EmbeddingsState {
  readonly ingress: EmbeddingsIngress;
  readonly request: EmbeddingRequest;
  /** The current attempt's plan (set when it is built). */
  plan: EmbeddingsPlan | null;
}

const JSON_HEADERS = { 'content-type': 'application/json' } as const;
const ESTIMATED_HEADERS = { 'content-type': 'application/json', [TOKEN_COUNT_HEADER]: TOKEN_COUNT_ESTIMATE } as const;

/** After the target: the body decoded as its route's embeddings request (a bad one is refused in the caller's shape). */
export function embeddingsDecodeStep(ctx: RequestContext): boolean {
  const ingress = EMBEDDINGS_INGRESS[ctx.route!.embeddings!];
  ctx.stream = false;
  let request: EmbeddingRequest;
  try {
    request = ingress.decodeRequest(ctx.body, ctx.routeInfo.pathModel);
  } catch (err) {
    return endUndecodable(ctx, err, 'embeddings');
  }
  const state: EmbeddingsState = { ingress, request, plan: null };
  ctx.kindState = state;
  return true;
}

function stateOf(ctx: RequestContext): EmbeddingsState {
  return ctx.kindState as EmbeddingsState;
}

/** RequestKind.outgoing: throws GatewayError('untranslatable') for a lane with no embeddings (Anthropic, Bedrock). */
function embeddingsOutgoing(ctx: RequestContext, lane: LaneRuntime): OutgoingRequest {
  const state = stateOf(ctx);
  const plan = planEmbeddings(state.ingress, state.request, ctx.raw, ctx.body, lane.provider.codec.name, lane.compiled.upstreamModel);
  state.plan = plan;
  return kindOutgoing(ctx, lane, plan.request);
}

/** RequestKind.passBody and translateBody: the vectors in the caller's shape, the input tokens metered. */
function embeddingsAnswered(s: RelayState, ctx: RequestContext): RelayVerdict {
  const state = stateOf(ctx);
  const plan = state.plan!;
  const bytes = bufferedBody(s);
  let resp: EmbeddingResponse | null = null;
  try {
    const body: unknown = JSON.parse(bytes.toString('utf8'));
    const reported = plan.sameProtocol ? plan.upstream.usageFromResponse(body) : null;
    let usage: EmbeddingUsage;
    if (reported !== null) usage = { inputTokens: reported, estimated: false };
    else {
      resp = plan.upstream.decodeResponse(body, state.request);
      if (resp.model === '') resp.model = s.lane!.compiled.upstreamModel;
      usage = resp.usage;
    }
    s.usage = embeddingsUsage(usage);
    const headers = usage.estimated ? ESTIMATED_HEADERS : JSON_HEADERS;
    // The caller's own protocol: its bytes as they came.
    s.answer = plan.sameProtocol ? wholeAnswer(200, headers, bytes) : wholeAnswer(200, headers, state.ingress.encodeResponse(resp!, state.request));
  } catch {
    return RelayVerdict.Unreadable;
  }
  return RelayVerdict.Complete;
}

export const EMBEDDINGS_EXCHANGE = { outgoing: embeddingsOutgoing, passBody: embeddingsAnswered, translateBody: embeddingsAnswered };
