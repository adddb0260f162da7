// The data-plane route table: which URL patterns exist and what each implies. Ingress
// registers these with uWS; the pipeline reads the kind and protocol.
import type { ProtocolName } from '../shared/model/types.js';

type RouteKind =
  | 'protocol'   // a named vendor route: the body's (or path's) model names a pool or lane
  | 'direct'     // POST /{provider}/{model}: that provider's lane, no translation
  | 'direct-model' // POST /{model}: a pool name first, then a lane, body in the target's protocol
  | 'listing';     // a model-listing call with a body (Ollama's POST /api/show): answered by the gateway

export interface RouteDef {
  pattern: string;
  kind: RouteKind;
  protocol?: ProtocolName;
  /** Which path parameter holds the model (gemini/bedrock/direct), if any. */
  modelParam?: number;
  /** Streaming implied by the path. */
  pathStream?: boolean;
  /** Ollama's completion form (/api/generate): its own ingress codec, translated like chat. */
  generate?: boolean;
}

// Static routes are registered before the parametric direct routes; uWS prefers static
// segments anyway, but the order documents intent.
export const ROUTES: readonly RouteDef[] = [
  { pattern: '/v1/chat/completions', kind: 'protocol', protocol: 'openai' },
  { pattern: '/v1/responses', kind: 'protocol', protocol: 'responses' },
  { pattern: '/v1/messages', kind: 'protocol', protocol: 'anthropic' },
  { pattern: '/v1beta/models/:modelAction', kind: 'protocol', protocol: 'gemini', modelParam: 0 },
  { pattern: '/model/:modelId/converse', kind: 'protocol', protocol: 'bedrock', modelParam: 0, pathStream: false },
  { pattern: '/model/:modelId/converse-stream', kind: 'protocol', protocol: 'bedrock', modelParam: 0, pathStream: true },
  { pattern: '/api/chat', kind: 'protocol', protocol: 'ollama' },
  { pattern: '/api/generate', kind: 'protocol', protocol: 'ollama', generate: true },
  { pattern: '/api/show', kind: 'listing', protocol: 'ollama' },
  { pattern: '/:provider/:model', kind: 'direct' },
  { pattern: '/:model', kind: 'direct-model' },
];

const GEMINI_ACTIONS: Readonly<Record<string, boolean>> = {
  generateContent: false,
  streamGenerateContent: true,
};

/**
 * Splits gemini's `{model}:{action}` segment. Returns undefined for an unknown action so the
 * caller answers 404 in gemini's shape.
 */
export function parseGeminiModelAction(segment: string): { model: string; stream: boolean } | undefined {
  const colon = segment.lastIndexOf(':');
  if (colon <= 0) return undefined;
  const stream = GEMINI_ACTIONS[segment.slice(colon + 1)];
  if (stream === undefined) return undefined;
  return { model: decodeURIComponent(segment.slice(0, colon)), stream };
}
