// The only file that imports uWebSockets.js. Its rules (index.d.ts is the manual): the request
// object is valid only until the handler returns, so everything needed is copied first;
// onAborted is attached before any asynchronous step; body chunks are recycled after the
// callback, so they are copied; writes after an asynchronous gap happen inside cork;
// writeStatus comes before headers. Each response is a UwsClientResponse (client-response.ts),
// whose corks are made in corked-send.ts (both take only types from uWS).
import { Buffer } from 'node:buffer';
import { performance } from 'node:perf_hooks';
import uWS, { type HttpRequest, type HttpResponse, type TemplatedApp, type us_listen_socket } from '../shared/uws.js';
import { ANY_CALLER_HEADERS, ROUTES, STORED_RESPONSE_ROUTES, callerHeadersOf } from './routes.js';
import { GET_PATHS, LISTING_STATIC_PATHS, allowedMethods } from './method-table.js';
import { LISTING_ROUTES } from './listing/routes.js';
import type { BodySink, ClientResponse, IngressRequest } from './pipeline/client.js';
import { UwsClientResponse, inflightResponses } from './client-response.js';
import { idleSpin } from './loop/idle-spin.js';
import { REQUEST_HEADER, uwsKey } from './uws-keys.js';
import { isBearer } from './auth/credential.js';

export interface IngressHandlers {
  /** Current body cap in bytes (read per request: a config apply may change it). */
  maxBodyBytes(): number;
  /**
   * A data-plane request whose headers were read (ROUTES[req.routeIndex]); its body is still
   * arriving. Returns who is told when the body is complete (or over the cap).
   */
  onRequest(req: IngressRequest, res: ClientResponse): BodySink;
  /** The content-length is over the cap: answer in the route's protocol (the body is not read). */
  onBodyTooLarge(req: IngressRequest, res: ClientResponse): void;
  /** A GET model-listing route (req.routeIndex indexes LISTING_ROUTES): no body. */
  onListing(req: IngressRequest, res: ClientResponse): void;
  /** A stored-response route (req.routeIndex indexes STORED_RESPONSE_ROUTES): GET or DELETE, no body. */
  onStoredResponse(req: IngressRequest, res: ClientResponse): void;
  /** No route matched. */
  onNotFound(req: IngressRequest, res: ClientResponse, method: string, path: string): void;
  /** A known path asked with a method it does not take: 405 with `allow` (req.routeIndex: its ROUTES index, or -1). */
  onMethodNotAllowed(req: IngressRequest, res: ClientResponse, method: string, path: string, allow: string): void;
  /** The body is in a content-encoding the gateway does not decode (it decodes none). */
  onUnsupportedEncoding(req: IngressRequest, res: ClientResponse, encoding: string): void;
  /** A data-plane request arrived while this worker drains. */
  onDraining(req: IngressRequest, res: ClientResponse): void;
  /** The in-flight limit (read per request: an apply may change it). */
  maxInflight(): number;
  /** `upstream_credentials: passthrough`: every credential header the caller sent goes upstream. */
  forwardsCallerCredentials(): boolean;
  /** A data-plane request over the in-flight limit: 503 + Retry-After in the route's protocol. */
  onShed(req: IngressRequest, res: ClientResponse): void;
  /** GET /healthz: true when any lane is usable. */
  healthy(): boolean;
  /**
   * GET /stats with the caller's credential headers: the lane snapshot as JSON (or a
   * refusal); a promise while the caller's key is verified the first time.
   */
  stats(caller: { authorization: string; xApiKey: string }): StatsPage | Promise<StatsPage>;
  /**
   * GET /metrics with the caller's credential headers: the page to send (rendered
   * asynchronously), or null when /metrics is not mounted (answered like an unknown path).
   */
  metrics(caller: { authorization: string; xApiKey: string }): Promise<{ status: number; contentType: string; body: string }> | null;
  /** POST /auth/token (token exchange, or the sign-in page's Refresh form): main's answer. */
  authToken(authorization: string, contentType: string, body: string): Promise<AuthTokenAnswer>;
  /** GET /auth/token: the hosted sign-in page (main's answer). */
  signInPage(query: string, host: string): Promise<AuthTokenAnswer>;
}

interface AuthTokenAnswer {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

const JSON_NO_STORE = { 'content-type': 'application/json', 'cache-control': 'no-store' };

function relayAuthToken(client: UwsClientResponse, answer: Promise<AuthTokenAnswer>): void {
  answer.then(
    (a) => client.respond(a.status, a.headers ?? JSON_NO_STORE, a.body),
    () =>
      client.respond(
        500,
        { 'content-type': 'application/json' },
        JSON.stringify({ error: { message: 'the token exchange failed', type: 'server_error', param: null, code: null } }),
      ),
  );
}

/** POST /auth/token bodies are small: an IdP token and two fields. */
const AUTH_TOKEN_BODY_MAX_BYTES = 64 * 1024;

function answerAuthToken(res: HttpResponse, req: HttpRequest, handlers: IngressHandlers): void {
  const client = new UwsClientResponse(res);
  res.onAborted(() => client.handleAborted());
  const authorization = req.getHeader('authorization');
  const contentType = req.getHeader('content-type');
  const chunks: Buffer[] = [];
  let length = 0;
  res.onData((chunk, isLast) => {
    if (length < 0) return;
    length += chunk.byteLength;
    if (length > AUTH_TOKEN_BODY_MAX_BYTES) {
      length = -1;
      client.closeOnEnd = true;
      client.respond(
        413,
        { 'content-type': 'application/json' },
        JSON.stringify({ error: { message: 'the body is too large', type: 'invalid_request_error', param: null, code: null } }),
      );
      return;
    }
    chunks.push(Buffer.from(chunk.slice(0))); // copy: uWS recycles `chunk`
    if (!isLast) return;
    relayAuthToken(client, handlers.authToken(authorization, contentType, Buffer.concat(chunks).toString('utf8')));
  });
}

export interface StatsPage {
  status: number;
  contentType: string;
  body: string;
}

/** Set when the worker drains: /healthz answers 503 and new requests are refused, while the listener stays open. */
let draining = false;

/**
 * Which headers a route's requests are read for (each getHeader is a call into uWS, about 50 ns).
 * `x-api-key` and `x-goog-api-key` are read when they can matter: a bearer `Authorization` is
 * the credential that counts when present (credential.ts), unless every credential header the
 * caller sent goes upstream (`upstream_credentials: passthrough`) or the route is a listing
 * (which tells its callers apart by them). Beyond those, the route's codec's caller headers
 * (Codec.callerHeaders), made bytes once.
 */
interface HeaderReads {
  /** Every credential header, whatever the Authorization (listings). */
  allCredentials: boolean;
  /** The caller headers: names and the same as uWS keys. */
  names: readonly string[];
  keys: readonly ArrayBuffer[];
}

function headerReads(names: readonly string[], allCredentials: boolean): HeaderReads {
  return { allCredentials, names, keys: names.map(uwsKey) };
}

const NO_CALLER_HEADERS: Readonly<Record<string, string>> = Object.freeze({});
const LISTING_READS = headerReads(ANY_CALLER_HEADERS, true);
/** An answer of the edge: the headers that tell the caller's protocol. */
const EDGE_READS = headerReads(ANY_CALLER_HEADERS, true);

/** Everything the pipeline reads of the request (as `reads` says), copied while `req` is valid. */
function copyRequest(routeIndex: number, paramCount: number, req: HttpRequest, reads: HeaderReads, forwardsCredentials: boolean): IngressRequest {
  const params: string[] = [];
  for (let i = 0; i < paramCount; i++) params.push(req.getParameter(i));
  const authorization = req.getHeader(REQUEST_HEADER.authorization);
  const otherCredentials = forwardsCredentials || reads.allCredentials || !isBearer(authorization);
  let callerHeaders = NO_CALLER_HEADERS;
  for (let i = 0; i < reads.keys.length; i++) {
    const value = req.getHeader(reads.keys[i]!);
    if (value === '') continue;
    if (callerHeaders === NO_CALLER_HEADERS) callerHeaders = {};
    (callerHeaders as Record<string, string>)[reads.names[i]!] = value;
  }
  const request: IngressRequest = {
    routeIndex,
    params,
    query: req.getQuery() ?? '',
    contentType: req.getHeader(REQUEST_HEADER.contentType),
    authorization,
    xApiKey: otherCredentials ? req.getHeader(REQUEST_HEADER.xApiKey) : '',
    xGoogApiKey: otherCredentials ? req.getHeader(REQUEST_HEADER.xGoogApiKey) : '',
    callerHeaders,
    affinity: req.getHeader(REQUEST_HEADER.affinity),
    traceparent: req.getHeader(REQUEST_HEADER.traceparent),
    body: EMPTY,
    bodyRead: false,
    startedMs: performance.now(),
  };
  if (request.authorization.startsWith('AWS4-')) {
    const headers: Record<string, string> = {};
    req.forEach((name, value) => (headers[name] = value));
    request.sigv4 = { path: req.getUrl(), headers };
  }
  return request;
}

function readRequest(routeIndex: number, paramCount: number, reads: HeaderReads, res: HttpResponse, req: HttpRequest, handlers: IngressHandlers): void {
  const client = new UwsClientResponse(res);
  res.onAborted(() => client.handleAborted());
  const request = copyRequest(routeIndex, paramCount, req, reads, handlers.forwardsCallerCredentials());
  const contentLength = Number(req.getHeader(REQUEST_HEADER.contentLength) || '0');

  if (refusedAtTheDoor(request, client, req.getHeader(REQUEST_HEADER.contentEncoding), handlers)) return;
  // Over the in-flight limit (this request counted): shed before anything else is done for it.
  if (inflightResponses() > handlers.maxInflight()) {
    shed(request, client, res, contentLength, req.getHeader(REQUEST_HEADER.transferEncoding) !== '', handlers);
    return;
  }
  const cap = handlers.maxBodyBytes();
  if (contentLength > cap) {
    client.closeOnEnd = true;
    handlers.onBodyTooLarge(request, client);
    return;
  }
  // The pipeline starts on the headers (authentication reads nothing else); it is told when the
  // body is in. A request it already ended (a refusal) reads the body no further: its answer
  // closes the connection.
  const sink = handlers.onRequest(request, client);
  // Refused on its headers (no credential, a key refused from the cache): nothing of the body is
  // taken, not even its buffer. uWS drops what arrives until the answer closes the connection.
  // (Sizing a 4 MB buffer per refused request cost the worker page faults and GC: decision 306.)
  if (client.closeOnEnd) return;
  // With a content-length the body lands in one buffer sized once; chunked bodies grow.
  let body = contentLength > 0 ? Buffer.allocUnsafe(contentLength) : EMPTY;
  // The body's size and the chunk's read once into locals: V8 compiles a typed array's
  // byteLength, length and set here as generic property loads (about 136 instructions each).
  let capacity = body.length;
  let length = 0;
  let rejected = false;
  res.onData((chunk, isLast) => {
    if (rejected || client.closeOnEnd) return;
    const bytes = new Uint8Array(chunk);
    const size = bytes.byteLength;
    if (length + size > cap) {
      rejected = true;
      client.closeOnEnd = true;
      sink.onBodyTooLarge();
      return;
    }
    if (length + size > capacity) {
      capacity = Math.max(capacity * 2, length + size, 1024);
      const grown = Buffer.allocUnsafe(capacity);
      body.copy(grown, 0, 0, length);
      body = grown;
    }
    copyInto.call(body, bytes, length); // copy: uWS recycles `chunk` after this callback
    length += size;
    if (isLast) {
      request.body = length === capacity ? body : body.subarray(0, length);
      request.bodyRead = true;
      idleSpin.event(request.startedMs); // its arrival: the same turn unless the body came late
      sink.onBody();
    }
  });
}

const EMPTY = Buffer.alloc(0);
/** Uint8Array's set, called on the body: a known function, where `body.set` is a property load. */
const copyInto = Uint8Array.prototype.set;

/** A shed request's body is read and dropped when it is small, so the connection stays open. */
const SHED_DRAIN_MAX_BYTES = 64 * 1024;

function shed(request: IngressRequest, client: UwsClientResponse, res: HttpResponse, contentLength: number, chunked: boolean, handlers: IngressHandlers): void {
  if (chunked || contentLength > SHED_DRAIN_MAX_BYTES) {
    client.closeOnEnd = true;
    handlers.onShed(request, client);
    return;
  }
  request.bodyRead = true; // read and dropped: the connection stays usable
  if (contentLength === 0) {
    handlers.onShed(request, client);
    return;
  }
  res.onData((_chunk, isLast) => {
    if (isLast) handlers.onShed(request, client);
  });
}

/**
 * Refusals made before the body is read (so the connection closes after the answer): a
 * content-encoding other than identity (the gateway decodes none: 415), or a drain under way.
 */
function refusedAtTheDoor(request: IngressRequest, client: UwsClientResponse, encoding: string, handlers: IngressHandlers): boolean {
  if (encoding !== '' && encoding.toLowerCase() !== 'identity') {
    client.closeOnEnd = true;
    handlers.onUnsupportedEncoding(request, client, encoding);
    return true;
  }
  if (draining) {
    client.closeOnEnd = true;
    handlers.onDraining(request, client);
    return true;
  }
  return false;
}

/** 200 `ok` when any lane is usable; 503 `draining` during a drain, else 503 `unavailable`. */
function answerHealthz(res: HttpResponse, handlers: IngressHandlers, withBody: boolean): void {
  const ok = !draining && handlers.healthy();
  const text = ok ? 'ok' : draining ? 'draining' : 'unavailable';
  res.cork(() => {
    res.writeStatus(ok ? '200 OK' : '503 Service Unavailable').writeHeader('content-type', 'text/plain');
    if (withBody) res.end(text);
    else res.end(); // endWithoutBody() does not end the response in this uWS build
  });
}

function answerRoot(res: HttpResponse, withBody: boolean): void {
  res.cork(() => {
    res.writeStatus('200 OK').writeHeader('content-type', 'text/plain; charset=utf-8');
    if (withBody) res.end('Ollama is running');
    else res.end();
  });
}

/** Any path no route took: 405 with Allow for a known path, else 404. */
function answerUnrouted(res: HttpResponse, req: HttpRequest, handlers: IngressHandlers): void {
  const client = new UwsClientResponse(res);
  res.onAborted(() => client.handleAborted());
  const method = req.getMethod();
  const path = req.getUrl();
  const known = allowedMethods(path);
  const request = copyRequest(known !== null ? known.routeIndex : -1, 0, req, EDGE_READS, false);
  // The body of an unrouted request is not read; uWS skips what the content-length covers.
  request.bodyRead = true;
  if (known !== null && !known.allow.split(', ').includes(method.toUpperCase())) handlers.onMethodNotAllowed(request, client, method, path, known.allow);
  else handlers.onNotFound(request, client, method, path);
}

function paramCountOf(pattern: string): number {
  let n = 0;
  for (const segment of pattern.split('/')) if (segment.startsWith(':')) n++;
  return n;
}

/** A TCP address, or a unix socket (behind the TLS front, see main/tls). */
export type IngressTarget = { host: string; port: number } | { path: string };

export interface Ingress {
  /** The TCP port listened on; 0 on a unix socket. */
  port: number;
  /** Stop accepting new connections (in-flight requests finish). */
  stopListening(): void;
  /** Keep listening, but answer /healthz 503 and refuse new requests with 503 (in-flight ones finish). */
  startDraining(): void;
  /** Requests not yet finished. */
  inflight(): number;
  /**
   * Close the listener and every connection. uWS must be closed before its thread ends:
   * a worker thread that ends with uWS sockets open aborts the whole process.
   */
  close(): void;
}

export function startIngress(target: IngressTarget, handlers: IngressHandlers): Promise<Ingress> {
  const app: TemplatedApp = uWS.App();
  app.post('/auth/token', (res, req) => answerAuthToken(res, req, handlers));
  app.get('/auth/token', (res, req) => {
    const client = new UwsClientResponse(res);
    res.onAborted(() => client.handleAborted());
    relayAuthToken(client, handlers.signInPage(req.getQuery() ?? '', req.getHeader('host')));
  });
  ROUTES.forEach((route, index) => {
    const paramCount = paramCountOf(route.pattern);
    const reads = headerReads(callerHeadersOf(route), route.kind === 'listing');
    app.post(route.pattern, (res, req) => readRequest(index, paramCount, reads, res, req, handlers));
  });
  LISTING_ROUTES.forEach((route, index) => {
    const paramCount = paramCountOf(route.pattern);
    app.get(route.pattern, (res, req) => {
      const client = new UwsClientResponse(res);
      res.onAborted(() => client.handleAborted());
      const request = copyRequest(index, paramCount, req, LISTING_READS, false);
      request.bodyRead = true;
      handlers.onListing(request, client);
    });
  });
  STORED_RESPONSE_ROUTES.forEach((route, index) => {
    const paramCount = paramCountOf(route.pattern);
    app[route.method](route.pattern, (res, req) => {
      const client = new UwsClientResponse(res);
      res.onAborted(() => client.handleAborted());
      const request = copyRequest(index, paramCount, req, LISTING_READS, false);
      // The body of a GET or DELETE is not read; uWS skips what the content-length covers.
      request.bodyRead = true;
      handlers.onStoredResponse(request, client);
    });
  });
  // Ollama clients detect a server by `GET /` (or HEAD): Ollama answers 200 "Ollama is running".
  app.get('/', (res) => answerRoot(res, true));
  app.head('/', (res) => answerRoot(res, false));
  app.get('/healthz', (res) => answerHealthz(res, handlers, true));
  // Some load balancers probe with HEAD: the same status, no body.
  app.head('/healthz', (res) => answerHealthz(res, handlers, false));
  // POST /healthz would otherwise be taken by the direct route /{model}.
  for (const path of [...GET_PATHS, ...LISTING_STATIC_PATHS]) app.post(path, (res, req) => answerUnrouted(res, req, handlers));
  app.get('/stats', (res, req) => {
    const client = new UwsClientResponse(res);
    res.onAborted(() => client.handleAborted());
    const page = handlers.stats({ authorization: req.getHeader('authorization'), xApiKey: req.getHeader('x-api-key') });
    // respond() corks its writes and does nothing once the caller has gone.
    if (page instanceof Promise) {
      page.then(
        (p) => client.respond(p.status, { 'content-type': p.contentType }, p.body),
        () => client.respond(500, { 'content-type': 'text/plain' }, 'the stats could not be read'),
      );
    } else {
      client.respond(page.status, { 'content-type': page.contentType }, page.body);
    }
  });
  app.get('/metrics', (res, req) => {
    const client = new UwsClientResponse(res);
    res.onAborted(() => client.handleAborted());
    const page = handlers.metrics({ authorization: req.getHeader('authorization'), xApiKey: req.getHeader('x-api-key') });
    if (page === null) {
      const request = copyRequest(-1, 0, req, EDGE_READS, false);
      request.bodyRead = true;
      handlers.onNotFound(request, client, 'GET', '/metrics');
      return;
    }
    // respond() corks its writes and does nothing once the caller has gone.
    page.then(
      (p) => client.respond(p.status, { 'content-type': p.contentType }, p.body),
      () => client.respond(500, { 'content-type': 'text/plain' }, 'the metrics could not be rendered'),
    );
  });
  app.any('/*', (res, req) => answerUnrouted(res, req, handlers));

  return new Promise((resolve, reject) => {
    const onListen = (socket: us_listen_socket | false): void => {
      if (socket === false) {
        reject(new Error(`cannot listen on ${'path' in target ? target.path : `${target.host}:${target.port}`}`));
        return;
      }
      let listening: us_listen_socket | null = socket;
      resolve({
        port: 'path' in target ? 0 : uWS.us_socket_local_port(socket as unknown as Parameters<typeof uWS.us_socket_local_port>[0]),
        inflight: () => inflightResponses(),
        close() {
          listening = null;
          // close() is in this build's binary but missing from its index.d.ts.
          (app as TemplatedApp & { close(): void }).close();
        },
        stopListening() {
          if (listening !== null) uWS.us_listen_socket_close(listening);
          listening = null;
        },
        startDraining() {
          draining = true;
        },
      });
    };
    // uSockets unlinks a stale socket file before binding, so a restarted worker rebinds.
    if ('path' in target) app.listen_unix(onListen, target.path);
    else app.listen(target.host, target.port, onListen);
  });
}
