// What the pipeline sees of the caller's connection. Implemented in ingress.ts (the one file
// that imports uWS), so the pipeline never touches uWS objects and their rules directly.

export interface ClientResponse {
  /** True once the caller went away; nothing may be written after that. */
  readonly aborted: boolean;
  /** True once a status line was written (the first byte is on its way). */
  readonly started: boolean;
  /**
   * Close the connection after the answer: set when the rest of the request body will not be
   * read (an answer made before the body arrived, a body over the cap), so the next request on
   * the connection cannot be parsed out of the body's bytes.
   */
  closeOnEnd: boolean;
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

/**
 * Who gets the request body, told by the ingress as it is read: the request's context. The
 * pipeline starts on the headers (authentication needs nothing else), so the body may still be
 * arriving while the first steps run.
 */
export interface BodySink {
  /** The whole body is in `IngressRequest.body`. */
  onBody(): void;
  /** The body grew past the cap while it was read (the connection closes after the answer). */
  onBodyTooLarge(): void;
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
  /**
   * The headers the route's codec names as its callers' (Codec.callerHeaders; every codec's on
   * a route whose codec is not known up front), by lower-case name; only those present.
   */
  callerHeaders: Readonly<Record<string, string>>;
  /** The `affinity` header: requests with the same value prefer the same usable member ('' = none). */
  affinity: string;
  /** The W3C `traceparent` header ('' = none): the parent of the gateway's spans, passed upstream. */
  traceparent: string;
  /** The body, once it was read whole (`bodyRead`); empty until then. */
  body: Buffer;
  /** True once `body` holds the whole request body. */
  bodyRead: boolean;
  /**
   * Only for a SigV4-signed request (`Authorization: AWS4-HMAC-SHA256 ...`): the raw path and
   * every header, which the signature covers (copied only then: most requests never need it).
   */
  sigv4?: { path: string; headers: Record<string, string> };
  /** Monotonic ms when the request arrived. */
  startedMs: number;
}
