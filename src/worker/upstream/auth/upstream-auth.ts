// Upstream credentials, the public surface: the contract between the dispatch step and a
// provider's credential mode, the factory, and the passthrough header list. The mode files
// import only types from here, so the re-exports below make no import cycle at run time.
export { createUpstreamAuth, type UpstreamAuthOptions } from './create-upstream-auth.js';
export { passthroughCredential } from './passthrough.js';
export type { TokenTiming } from './minted-token-auth.js';

/** One outgoing upstream request, as the dispatch step is about to send it. */
export interface OutgoingRequest {
  method: string;
  /** Scheme + host + port, e.g. `https://bedrock-runtime.us-east-1.amazonaws.com`. */
  origin: string;
  /** Path with its query string, e.g. `/model/m/converse` or `/v1/x?alt=sse`. */
  path: string;
  /** Lower-case header names; apply() writes the credential headers here in place. */
  headers: Record<string, string>;
  /** Text, or the caller's bytes (edited) for a same-protocol request. */
  body: string | Uint8Array;
}

export interface UpstreamAuth {
  /**
   * Adds the credential headers to `req.headers` (lower-case names). Returns false when no
   * credential is available yet (a token mode before its first token, a missing key): the
   * caller then answers 401 itself. Synchronous for every mode except sigv4.
   */
  apply(req: OutgoingRequest): boolean | Promise<boolean>;
  /** Stops background work (token refresh timers, an in-flight mint). Idempotent. */
  close(): void;
}
