// The data-plane route table: which URL patterns exist and what each implies. Ingress
// registers these with uWS; the pipeline reads the kind and the caller's codec.
import type { ProtocolName } from '../shared/model/types.js';
import type { Codec } from '../shared/protocols/codec.js';
import { CODECS } from '../shared/protocols/index.js';
import { ollamaGenerateCodec } from '../shared/protocols/ollama/generate.js';
import { membersToRead } from '../shared/governance/estimators.js';
import type { CountProtocol } from '../shared/protocols/token-count.js';
import { COUNT_TOKENS_PATH } from '../shared/protocols/anthropic/token-count.js';
import { INPUT_TOKENS_PATH } from '../shared/protocols/responses/token-count.js';
import type { EmbeddingsRoute } from '../shared/protocols/embeddings.js';

type RouteKind =
  | 'protocol' // a named vendor route: the body's (or path's) model names a pool or lane
  | 'direct' // POST /{provider}/{model}: that provider's lane, no translation
  | 'direct-model' // POST /{model}: a pool name first, then a lane, body in the target's protocol
  | 'listing' // a model-listing call with a body (Ollama's POST /api/show): answered by the gateway
  | 'count' // a token count (Anthropic count_tokens, Gemini countTokens, Responses input_tokens, Bedrock CountTokens)
  | 'embeddings' // an embeddings request (OpenAI, Gemini's two, Ollama's two)
  | 'responses'; // POST /v1/responses: chat, with the conversation state the gateway keeps

export interface RouteDef {
  pattern: string;
  kind: RouteKind;
  protocol?: ProtocolName;
  /** The caller's codec on a protocol (or listing) route; a direct route's is known once its target is. */
  codec?: Codec;
  /** Which path parameter holds the model (gemini/bedrock), if any. */
  modelParam?: number;
  /** Streaming implied by the path. */
  pathStream?: boolean;
  /** A count route: the caller's counting codec (protocols/token-count.ts). */
  count?: CountProtocol;
  /** An embeddings route: the caller's embeddings codec (protocols/embeddings.ts). */
  embeddings?: EmbeddingsRoute;
  /**
   * Gemini's `{model}:{action}` segment (param 0) names other kinds beside chat: the route of
   * each such action. The chat actions are the route itself.
   */
  actions?: Readonly<Record<string, RouteDef>>;
  /** The model's path segment ends in `:{action}` (an action route of `actions`). */
  actionInPath?: boolean;
}

/** A route as the pipeline reads it: its definition, and the members a same-protocol body is read for. */
export interface Route extends RouteDef {
  /** The codec's fast-path members plus the cost estimator's (governance/estimators.ts); undefined: parse the body whole. */
  readonly readMembers: readonly string[] | undefined;
  readonly actions?: Readonly<Record<string, Route>>;
}

const GEMINI_MODEL_PATH = '/v1beta/models/:modelAction';

/** Gemini's `{model}:embedContent` and `:batchEmbedContents`: one path, told apart by the action. */
function geminiEmbeddingsRoute(embeddings: EmbeddingsRoute): RouteDef {
  return { pattern: GEMINI_MODEL_PATH, kind: 'embeddings', protocol: 'gemini', codec: CODECS.gemini, modelParam: 0, actionInPath: true, embeddings };
}

// Static routes are registered before the parametric direct routes; uWS prefers static
// segments anyway, but the order documents intent.
const ROUTE_DEFS: readonly RouteDef[] = [
  { pattern: '/v1/chat/completions', kind: 'protocol', protocol: 'openai', codec: CODECS.openai },
  { pattern: COUNT_TOKENS_PATH, kind: 'count', protocol: 'anthropic', codec: CODECS.anthropic, count: 'anthropic' },
  { pattern: `/v1${INPUT_TOKENS_PATH}`, kind: 'count', protocol: 'responses', codec: CODECS.responses, count: 'responses' },
  { pattern: '/model/:modelId/count-tokens', kind: 'count', protocol: 'bedrock', codec: CODECS.bedrock, modelParam: 0, count: 'bedrock' },
  { pattern: '/v1/embeddings', kind: 'embeddings', protocol: 'openai', codec: CODECS.openai, embeddings: 'openai' },
  { pattern: '/api/embed', kind: 'embeddings', protocol: 'ollama', codec: CODECS.ollama, embeddings: 'ollama-embed' },
  { pattern: '/api/embeddings', kind: 'embeddings', protocol: 'ollama', codec: CODECS.ollama, embeddings: 'ollama-embeddings' },
  { pattern: '/v1/responses', kind: 'responses', protocol: 'responses', codec: CODECS.responses },
  { pattern: '/v1/messages', kind: 'protocol', protocol: 'anthropic', codec: CODECS.anthropic },
  {
    pattern: GEMINI_MODEL_PATH,
    kind: 'protocol',
    protocol: 'gemini',
    codec: CODECS.gemini,
    modelParam: 0,
    actions: {
      countTokens: { pattern: GEMINI_MODEL_PATH, kind: 'count', protocol: 'gemini', codec: CODECS.gemini, modelParam: 0, actionInPath: true, count: 'gemini' },
      embedContent: geminiEmbeddingsRoute('gemini-embed'),
      batchEmbedContents: geminiEmbeddingsRoute('gemini-batch'),
    },
  },
  { pattern: '/model/:modelId/converse', kind: 'protocol', protocol: 'bedrock', codec: CODECS.bedrock, modelParam: 0, pathStream: false },
  { pattern: '/model/:modelId/converse-stream', kind: 'protocol', protocol: 'bedrock', codec: CODECS.bedrock, modelParam: 0, pathStream: true },
  { pattern: '/api/chat', kind: 'protocol', protocol: 'ollama', codec: CODECS.ollama },
  // Ollama's completion form: its own ingress codec, translated like chat.
  { pattern: '/api/generate', kind: 'protocol', protocol: 'ollama', codec: ollamaGenerateCodec },
  { pattern: '/api/show', kind: 'listing', protocol: 'ollama', codec: CODECS.ollama },
  { pattern: '/:provider/:model', kind: 'direct' },
  { pattern: '/:model', kind: 'direct-model' },
];

function compile(def: RouteDef): Route {
  const readMembers = (def.kind === 'protocol' || def.kind === 'responses') && def.codec !== undefined ? membersToRead(def.codec) : undefined;
  const actions = def.actions === undefined ? undefined : Object.freeze(Object.fromEntries(Object.entries(def.actions).map(([a, d]) => [a, compile(d)])));
  const { actions: _defs, ...rest } = def;
  return Object.freeze({ ...rest, readMembers, ...(actions !== undefined ? { actions } : {}) });
}

export const ROUTES: readonly Route[] = ROUTE_DEFS.map(compile);

/**
 * The route a request on `route` takes: the route itself, or (Gemini) the one its action names
 * (`{model}:countTokens`...). An action the table does not name stays chat's, whose route step
 * refuses an unknown one.
 */
export function routeOfRequest(route: Route, params: readonly string[]): Route {
  const actions = route.actions;
  if (actions === undefined) return route;
  const segment = params[0]!;
  return actions[segment.slice(segment.lastIndexOf(':') + 1)] ?? route;
}

/** Every codec's caller headers: what a route whose codec is not known up front copies. */
export const ANY_CALLER_HEADERS: readonly string[] = [...new Set(Object.values(CODECS).flatMap((c) => c.callerHeaders ?? []))];

/** The request headers the ingress copies for `route` besides the ones every request needs. */
export function callerHeadersOf(route: RouteDef): readonly string[] {
  if (route.kind === 'protocol' || route.kind === 'responses') return route.codec!.callerHeaders ?? [];
  return ANY_CALLER_HEADERS;
}

/** The stored-response routes (GET and DELETE: no body), answered from the Responses state (pipeline/responses/stored.ts). */
export interface StoredResponseRoute {
  readonly pattern: string;
  readonly method: 'get' | 'del';
  readonly op: 'get' | 'delete' | 'input-items';
}

export const STORED_RESPONSE_ROUTES: readonly StoredResponseRoute[] = [
  { pattern: '/v1/responses/:id', method: 'get', op: 'get' },
  { pattern: '/v1/responses/:id/input_items', method: 'get', op: 'input-items' },
  { pattern: '/v1/responses/:id', method: 'del', op: 'delete' },
];
