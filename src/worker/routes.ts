// The data-plane route table: which URL patterns exist and what each implies. Ingress
// registers these with uWS; the pipeline reads the kind and the caller's codec.
import type { ProtocolName } from '../shared/model/types.js';
import type { Codec } from '../shared/protocols/codec.js';
import { CODECS } from '../shared/protocols/index.js';
import { ollamaGenerateCodec } from '../shared/protocols/ollama/generate.js';
import { membersToRead } from '../shared/governance/estimators.js';

type RouteKind =
  | 'protocol'   // a named vendor route: the body's (or path's) model names a pool or lane
  | 'direct'     // POST /{provider}/{model}: that provider's lane, no translation
  | 'direct-model' // POST /{model}: a pool name first, then a lane, body in the target's protocol
  | 'listing';     // a model-listing call with a body (Ollama's POST /api/show): answered by the gateway

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
}

/** A route as the pipeline reads it: its definition, and the members a same-protocol body is read for. */
export interface Route extends RouteDef {
  /** The codec's fast-path members plus the cost estimator's (governance/estimators.ts); undefined: parse the body whole. */
  readonly readMembers: readonly string[] | undefined;
}

// Static routes are registered before the parametric direct routes; uWS prefers static
// segments anyway, but the order documents intent.
const ROUTE_DEFS: readonly RouteDef[] = [
  { pattern: '/v1/chat/completions', kind: 'protocol', protocol: 'openai', codec: CODECS.openai },
  { pattern: '/v1/responses', kind: 'protocol', protocol: 'responses', codec: CODECS.responses },
  { pattern: '/v1/messages', kind: 'protocol', protocol: 'anthropic', codec: CODECS.anthropic },
  { pattern: '/v1beta/models/:modelAction', kind: 'protocol', protocol: 'gemini', codec: CODECS.gemini, modelParam: 0 },
  { pattern: '/model/:modelId/converse', kind: 'protocol', protocol: 'bedrock', codec: CODECS.bedrock, modelParam: 0, pathStream: false },
  { pattern: '/model/:modelId/converse-stream', kind: 'protocol', protocol: 'bedrock', codec: CODECS.bedrock, modelParam: 0, pathStream: true },
  { pattern: '/api/chat', kind: 'protocol', protocol: 'ollama', codec: CODECS.ollama },
  // Ollama's completion form: its own ingress codec, translated like chat.
  { pattern: '/api/generate', kind: 'protocol', protocol: 'ollama', codec: ollamaGenerateCodec },
  { pattern: '/api/show', kind: 'listing', protocol: 'ollama', codec: CODECS.ollama },
  { pattern: '/:provider/:model', kind: 'direct' },
  { pattern: '/:model', kind: 'direct-model' },
];

export const ROUTES: readonly Route[] = ROUTE_DEFS.map((def) =>
  Object.freeze({ ...def, readMembers: def.kind === 'protocol' && def.codec !== undefined ? membersToRead(def.codec) : undefined }),
);

/** Every codec's caller headers: what a route whose codec is not known up front copies. */
export const ANY_CALLER_HEADERS: readonly string[] = [...new Set(Object.values(CODECS).flatMap((c) => c.callerHeaders ?? []))];

/** The request headers the ingress copies for `route` besides the ones every request needs. */
export function callerHeadersOf(route: RouteDef): readonly string[] {
  if (route.kind === 'protocol') return route.codec!.callerHeaders ?? [];
  return ANY_CALLER_HEADERS;
}
