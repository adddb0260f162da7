// Which wire protocol a caller speaks, from what every request has before a route is known:
// the method, the path and the headers. Used where no route names a protocol (an unknown path,
// a wrong method, a route the gateway does not serve), so that the caller's own SDK gets its
// error in its own shape (Anthropic `type: error`, Gemini `error.status`, Bedrock
// `x-amzn-errortype`, Ollama `{error}`) instead of OpenAI's.
//
// The path decides when it names a vendor's API; otherwise the credential header does (each
// SDK sends its key in its own place, PROTOCOLS.md); otherwise OpenAI. Pure: no I/O, no state.
import type { ProtocolName } from '../shared/model/types.js';

/** A request header by lowercase name, '' when absent (as uWS's getHeader answers). */
export type HeaderLookup = (lowercaseName: string) => string;

/** Gemini's query-parameter credential (`?key=...`). */
const GEMINI_KEY_PARAM = /(?:^|&)key=[^&]/;
/** Gemini's `models/{model}:{action}` (and Vertex's `.../publishers/google/models/...`) under any version prefix. */
const GEMINI_MODEL_ACTION = /^\/v1(?:alpha|beta\d*)?\/(?:projects\/[^/]+\/locations\/[^/]+\/publishers\/google\/)?models\/[^/]+:[A-Za-z]+$/;

/**
 * The protocol whose error shape the caller reads. Path first: `/v1beta/...` and a Gemini model
 * action are Gemini, `/model/...` Bedrock, `/api/...` Ollama, `/v1/messages...` Anthropic,
 * `/v1/responses...` Responses. Then the credential: a SigV4 Authorization is Bedrock,
 * `x-goog-api-key` or a `key` query parameter Gemini, `anthropic-version` or `x-api-key`
 * Anthropic. Else OpenAI. `path` may carry its query (`?key=...`); `method` tells no protocol
 * apart today and is taken so that the edge's call does not change if one ever does.
 */
export function callerProtocol(_method: string, path: string, header: HeaderLookup, query = ''): ProtocolName {
  const q = path.indexOf('?');
  const byPath = protocolOfPath(q < 0 ? path : path.slice(0, q));
  if (byPath !== null) return byPath;
  if (header('authorization').startsWith('AWS4-HMAC-SHA256')) return 'bedrock';
  if (header('x-goog-api-key') !== '' || GEMINI_KEY_PARAM.test(q < 0 ? query : path.slice(q + 1))) return 'gemini';
  if (header('anthropic-version') !== '' || header('x-api-key') !== '') return 'anthropic';
  return 'openai';
}

function protocolOfPath(path: string): ProtocolName | null {
  if (path.startsWith('/v1beta/') || path === '/v1beta') return 'gemini';
  if (path.startsWith('/model/')) return 'bedrock';
  if (path.startsWith('/api/') || path === '/api') return 'ollama';
  if (isUnder(path, '/v1/messages')) return 'anthropic';
  if (isUnder(path, '/v1/responses')) return 'responses';
  if (GEMINI_MODEL_ACTION.test(path)) return 'gemini';
  return null;
}

/** `path` is `prefix` or below it (`/v1/messages/count_tokens`), not merely starting with it (`/v1/messagesx`). */
function isUnder(path: string, prefix: string): boolean {
  return path.startsWith(prefix) && (path.length === prefix.length || path.charCodeAt(prefix.length) === 47) /* '/' */;
}
