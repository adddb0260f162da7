// The credential a caller presents, wherever its vendor's SDK puts it: `Authorization: Bearer`
// (OpenAI, Responses, Ollama, Bedrock API keys), `x-api-key` (Anthropic), `x-goog-api-key`
// or `?key=` (Gemini). Empty when none. A SigV4 `Authorization` is not a bearer secret.
import type { IngressRequest } from '../pipeline/client.js';

const BEARER = 'bearer ';

export function isSigV4(authorization: string): boolean {
  return authorization.startsWith('AWS4-HMAC-SHA256 ');
}

/** `Bearer ` in any case, read in place (no lower-cased copy per request). */
export function isBearer(auth: string): boolean {
  if (auth.length <= BEARER.length) return false;
  // Letters by their lower-case bit; the trailing space exactly.
  for (let i = 0; i < BEARER.length - 1; i++) if ((auth.charCodeAt(i) | 0x20) !== BEARER.charCodeAt(i)) return false;
  return auth.charCodeAt(BEARER.length - 1) === 0x20;
}

function isSpace(code: number): boolean {
  return code <= 0x20;
}

export function presentedSecret(req: IngressRequest): string {
  const auth = req.authorization;
  if (isBearer(auth)) {
    // One slice; trim only when there is something to trim.
    const secret = auth.slice(BEARER.length);
    return isSpace(secret.charCodeAt(0)) || isSpace(secret.charCodeAt(secret.length - 1)) ? secret.trim() : secret;
  }
  if (req.xApiKey !== '') return req.xApiKey;
  if (req.xGoogApiKey !== '') return req.xGoogApiKey;
  if (req.query !== '') {
    const key = new URLSearchParams(req.query).get('key');
    if (key !== null) return key;
  }
  return '';
}
