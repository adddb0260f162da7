// What the pipeline sees of the caller's connection. Implemented in ingress.ts (the one file
// that imports uWS), so the pipeline never touches uWS objects and their rules directly.

export interface ClientResponse {
  /** True once the caller went away; nothing may be written after that. */
  readonly aborted: boolean;
  /** True once a status line was written (the first byte is on its way). */
  readonly started: boolean;
  /** Write the status and headers; `body` given = a complete response with content-length. */
  respond(status: number, headers: Record<string, string>, body: string | Uint8Array): void;
  /** Start a streamed (chunked) response; the head goes out with the first bytes. */
  startStream(status: number, headers: Record<string, string>): void;
  /** Write one chunk, or several parts in one send; false = the socket buffer is full, wait for `onDrain`. */
  write(chunk: string | Uint8Array | readonly Uint8Array[]): boolean;
  /** Finish a streamed response, writing `last` first when given (one send for both). */
  end(last?: string | Uint8Array): void;
  /** Register the one drain callback (called once when the buffer empties). */
  onDrain(cb: () => void): void;
  /** Register the one abort listener (an object, so a request makes no closure for it). */
  onAbort(listener: AbortListener): void;
}

/** Told once when the caller goes away before the response is finished. */
export interface AbortListener {
  onClientAbort(): void;
}

/** The request as copied out of uWS before the handler returned. */
export interface IngressRequest {
  routeIndex: number;
  /** Path parameters, in pattern order. */
  params: string[];
  query: string;
  contentType: string;
  authorization: string;
  xApiKey: string;
  xGoogApiKey: string;
  /** Anthropic's `anthropic-version` and `anthropic-beta` ('' = absent): passed to an Anthropic lane, and they mark an Anthropic caller of GET /v1/models. */
  anthropicVersion: string;
  anthropicBeta: string;
  /** The `affinity` header: requests with the same value prefer the same usable member ('' = none). */
  affinity: string;
  /** The W3C `traceparent` header ('' = none): the parent of the gateway's spans, passed upstream. */
  traceparent: string;
  body: Buffer;
  /**
   * Only for a SigV4-signed request (`Authorization: AWS4-HMAC-SHA256 ...`): the raw path and
   * every header, which the signature covers (copied only then: most requests never need it).
   */
  sigv4?: { path: string; headers: Record<string, string> };
  /** Monotonic ms when the request arrived. */
  startedMs: number;
}
