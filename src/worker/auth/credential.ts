// The credential a caller presents, wherever its vendor's SDK puts it: `Authorization: Bearer`
// (OpenAI, Responses, Ollama, Bedrock API keys), `x-api-key` (Anthropic), `x-goog-api-key`
// or `?key=` (Gemini). Empty when none. A SigV4 `Authorization` is not a bearer secret.
import type { IngressRequest } from '../pipeline/client.js';

const BEARER = 'bearer ';

export function isSigV4(authorization: string): boolean {
  return authorization.startsWith('AWS4-HMAC-SHA256 ');
}

export function presentedSecret(req: IngressRequest): string {
  const auth = req.authorization;
  if (auth.length > BEARER.length && auth.slice(0, BEARER.length).toLowerCase() === BEARER) return auth.slice(BEARER.length).trim();
  if (req.xApiKey !== '') return req.xApiKey;
  if (req.xGoogApiKey !== '') return req.xGoogApiKey;
  if (req.query !== '') {
    const key = new URLSearchParams(req.query).get('key');
    if (key !== null) return key;
  }
  return '';
}
