// `auth: sigv4`: AWS Signature V4 over each outgoing request (Bedrock). The signature covers
// method, host, path, query and a SHA-256 of the body, so it is computed per request (async).
import { SignatureV4 } from '@smithy/signature-v4';
import { Sha256 } from '@aws-crypto/sha256-js';
import type { CompiledAuth } from '../../../shared/config/compiled.js';
import type { OutgoingRequest, UpstreamAuth } from './upstream-auth.js';

type SigV4Config = Extract<CompiledAuth, { mode: 'sigv4' }>;

export interface SigV4Options {
  /** Clock for the signing date (tests pin it). */
  now?: () => Date;
}

export class SigV4Auth implements UpstreamAuth {
  readonly #signer: SignatureV4;
  readonly #now: () => Date;
  // The origin is the same on every request of a provider: parse it once.
  #lastOrigin = '';
  #lastHost = '';

  constructor(auth: SigV4Config, options: SigV4Options = {}) {
    if (!auth.region) throw new Error('upstream auth sigv4: region is empty');
    if (!auth.service) throw new Error('upstream auth sigv4: service is empty');
    this.#signer = new SignatureV4({
      service: auth.service,
      region: auth.region,
      credentials: {
        accessKeyId: auth.accessKeyId,
        secretAccessKey: auth.secretAccessKey,
        ...(auth.sessionToken ? { sessionToken: auth.sessionToken } : {}),
      },
      sha256: Sha256,
      // Emit x-amz-content-sha256 as the AWS SDKs do.
      applyChecksum: true,
    });
    this.#now = options.now ?? (() => new Date());
  }

  async apply(req: OutgoingRequest): Promise<boolean> {
    const host = this.#hostOf(req.origin);
    const q = req.path.indexOf('?');
    const path = q < 0 ? req.path : req.path.slice(0, q);
    const query = q < 0 ? undefined : parseQuery(req.path.slice(q + 1));
    const signed = await this.#signer.sign(
      {
        method: req.method.toUpperCase(),
        protocol: req.origin.startsWith('https:') ? 'https:' : 'http:',
        hostname: host,
        path,
        query,
        headers: signableHeaders(req.headers, host),
        body: req.body,
      },
      { signingDate: this.#now() },
    );
    const out = signed.headers;
    const date = out['x-amz-date'];
    const contentSha = out['x-amz-content-sha256'];
    const authorization = out.authorization;
    if (date === undefined || contentSha === undefined || authorization === undefined) throw new Error('SigV4: the signer returned no signature headers');
    req.headers['x-amz-date'] = date;
    req.headers['x-amz-content-sha256'] = contentSha;
    if (out['x-amz-security-token'] !== undefined) req.headers['x-amz-security-token'] = out['x-amz-security-token'];
    req.headers.authorization = authorization;
    return true;
  }

  close(): void {}

  #hostOf(origin: string): string {
    if (origin !== this.#lastOrigin) {
      // URL#host drops a default port, as the HTTP client does in the Host header it sends.
      this.#lastHost = new URL(origin).host;
      this.#lastOrigin = origin;
    }
    return this.#lastHost;
  }
}

/**
 * The headers the signature covers: host, content-type and the caller's x-amz-/x-amzn-
 * headers. Transport headers the HTTP client may add or rewrite after signing (content-length,
 * connection, ...) stay out of the signature so that it cannot break in transit.
 */
function signableHeaders(headers: Record<string, string>, host: string): Record<string, string> {
  const signable: Record<string, string> = { host };
  for (const name in headers) {
    if (name === 'content-type' || name.startsWith('x-amzn-') || (name.startsWith('x-amz-') && !GENERATED.has(name))) {
      signable[name] = headers[name]!;
    }
  }
  return signable;
}

// Written by the signer itself: a stale value from a previous attempt must not be reused.
const GENERATED = new Set(['x-amz-date', 'x-amz-content-sha256', 'x-amz-security-token']);

/** Decodes a raw query string into the signer's form; the signer re-encodes it canonically. */
function parseQuery(raw: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  if (raw === '') return query;
  for (const pair of raw.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const key = decodeQueryPart(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? '' : decodeQueryPart(pair.slice(eq + 1));
    const prev = query[key];
    if (prev === undefined) query[key] = value;
    else if (Array.isArray(prev)) prev.push(value);
    else query[key] = [prev, value];
  }
  return query;
}

function decodeQueryPart(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part; // malformed escape: sign it as sent
  }
}
