// The mock's OAuth2 token endpoint (POST /oauth2/token), standing in for Azure Entra ID
// (client credentials) and Google's token URL (JWT bearer assertion, RFC 7523).
import { Buffer } from 'node:buffer';

const GRANT_CLIENT_CREDENTIALS = 'client_credentials';
const GRANT_JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

export interface TokenAnswer {
  readonly status: number;
  readonly body: string;
}

/**
 * Answers a token request. `mint` is called only for a valid grant and returns the new
 * access token. Errors follow RFC 6749 section 5.2 and never echo the credential.
 */
export function answerTokenRequest(form: string, authorization: string, expiresInSec: number, mint: () => string): TokenAnswer {
  const params = new URLSearchParams(form);
  const grant = params.get('grant_type');
  if (grant === GRANT_CLIENT_CREDENTIALS) {
    const client = clientFromBasic(authorization) ?? { id: params.get('client_id'), secret: params.get('client_secret') };
    if (!client.id || !client.secret) return oauthError(401, 'invalid_client', 'client_id and client_secret are required (form body or HTTP Basic)');
  } else if (grant === GRANT_JWT_BEARER) {
    const assertion = params.get('assertion');
    if (assertion === null || !isWellFormedJwt(assertion)) return oauthError(400, 'invalid_grant', 'assertion must be a well-formed JWT');
  } else {
    return oauthError(400, 'unsupported_grant_type', `grant_type must be ${GRANT_CLIENT_CREDENTIALS} or ${GRANT_JWT_BEARER}`);
  }
  return {
    status: 200,
    body: JSON.stringify({ access_token: mint(), token_type: 'Bearer', expires_in: expiresInSec }),
  };
}

function oauthError(status: number, error: string, description: string): TokenAnswer {
  return { status, body: JSON.stringify({ error, error_description: description }) };
}

/** HTTP Basic client authentication; id and secret are form-urlencoded inside (RFC 6749 2.3.1). */
function clientFromBasic(authorization: string): { id: string; secret: string } | null {
  if (!/^basic /i.test(authorization)) return null;
  const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  try {
    return { id: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')), secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')) };
  } catch {
    return null;
  }
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** Three base64url segments whose first two decode to JSON objects; the signature is not checked. */
function isWellFormedJwt(token: string): boolean {
  const parts = token.split('.');
  if (parts.length !== 3) return false;
  const [head, body, signature] = parts as [string, string, string];
  if (!BASE64URL.test(head) || !BASE64URL.test(body) || (signature !== '' && !BASE64URL.test(signature))) return false;
  try {
    const header: unknown = JSON.parse(Buffer.from(head, 'base64url').toString('utf8'));
    const payload: unknown = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    return isObject(header) && isObject(payload);
  } catch {
    return false;
  }
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
