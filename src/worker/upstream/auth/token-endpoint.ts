// The OAuth2 token call both token-minting modes share: POST a form to the token URL and read
// `access_token` / `expires_in` from the JSON answer. Errors carry the HTTP status and a short
// reason code only, never the response body (it may echo a secret).
import { Buffer } from 'node:buffer';
import { request, type Dispatcher } from 'undici';

export interface MintedToken {
  accessToken: string;
  expiresInSec: number;
  /** HTTP status of the token endpoint's answer (for the log line). */
  status: number;
}

export class TokenMintError extends Error {
  /** HTTP status of the token endpoint's answer, when there was one. */
  readonly status: number | undefined;
  /** Short machine-readable cause, safe to log. */
  readonly reason: string;
  /** True when retrying cannot help (e.g. an unusable private key): stop until a reload. */
  readonly permanent: boolean;

  constructor(reason: string, status?: number, permanent = false) {
    super(status === undefined ? `token mint failed: ${reason}` : `token mint failed: ${reason} (HTTP ${status})`);
    this.name = 'TokenMintError';
    this.reason = reason;
    this.status = status;
    this.permanent = permanent;
  }
}

// A token answer is a few hundred bytes to a few KiB; anything past this is not one.
const TOKEN_RESPONSE_MAX_BYTES = 64 * 1024;
// When the identity provider omits expires_in: Google and Entra tokens live an hour.
const DEFAULT_EXPIRES_IN_SEC = 3600;

export interface TokenRequest {
  dispatcher: Dispatcher;
  tokenUrl: string;
  form: URLSearchParams;
  timeoutMs: number;
  signal: AbortSignal;
}

export async function postTokenForm(t: TokenRequest): Promise<MintedToken> {
  let res: Dispatcher.ResponseData;
  try {
    res = await request(t.tokenUrl, {
      dispatcher: t.dispatcher,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: t.form.toString(),
      headersTimeout: t.timeoutMs,
      bodyTimeout: t.timeoutMs,
      signal: t.signal,
    });
  } catch (err) {
    throw new TokenMintError(errorCode(err));
  }
  const status = res.statusCode;
  if (status < 200 || status > 299) {
    await res.body.dump().catch(() => {});
    throw new TokenMintError('rejected', status);
  }
  let text: string;
  try {
    text = await readCapped(res.body);
  } catch (err) {
    throw new TokenMintError(err instanceof TokenMintError ? err.reason : errorCode(err), status);
  }
  return parseTokenResponse(text, status);
}

function parseTokenResponse(text: string, status: number): MintedToken {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new TokenMintError('invalid_json', status);
  }
  const rec = json as { access_token?: unknown; expires_in?: unknown } | null;
  if (typeof rec !== 'object' || rec === null || typeof rec.access_token !== 'string' || rec.access_token === '') {
    throw new TokenMintError('no_access_token', status);
  }
  // Entra v1 endpoints send expires_in as a string.
  const expiresIn = Number(rec.expires_in);
  return {
    accessToken: rec.access_token,
    expiresInSec: Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : DEFAULT_EXPIRES_IN_SEC,
    status,
  };
}

async function readCapped(body: Dispatcher.ResponseData['body']): Promise<string> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of body) {
    bytes += (chunk as Buffer).length;
    if (bytes > TOKEN_RESPONSE_MAX_BYTES) {
      body.destroy();
      throw new TokenMintError('response_too_large');
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A network error's code (ECONNREFUSED, UND_ERR_HEADERS_TIMEOUT, ...): never its message. */
function errorCode(err: unknown): string {
  if (err && typeof err === 'object') {
    const e = err as { code?: unknown; name?: unknown };
    if (typeof e.code === 'string') return e.code;
    if (typeof e.name === 'string') return e.name;
  }
  return 'error';
}
