// The mock model provider: plays the upstream vendor for all six wire protocols, with settable
// latency, token rate and faults. The only uWS importer under src/mock. This file listens and
// reads requests; exchange.ts is one model request's state, answer.ts writes its answer.
//
// uWS rules kept here: copy the URL, query and headers before the handler returns; attach
// onAborted before anything asynchronous; copy body chunks (uWS recycles them); write inside
// res.cork after any timer; writeStatus before writeHeader.
import { Buffer } from 'node:buffer';
import uWS from '../shared/uws.js';
import type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket } from '../shared/uws.js';
import { answerTokenRequest } from './oauth.js';
import { MOCK_PROTOCOLS } from './protocols/index.js';
import type { MockProtocol, MockProtocolName, RouteFacts } from './protocols/types.js';
import { RenderCache } from './render-cache.js';
import { SettingError, settingsFrom, type MockSettingName, type MockSettings } from './settings.js';
import { applySettings, BodyMemo } from './body-memo.js';
import { countArrival, emptyStats, snapshotStats, type MockStats } from './stats.js';
import { HeldStreams } from './held-streams.js';
import { chooseTool, dispatch, writeError } from './answer.js';
import { Exchange, statusLine } from './exchange.js';
import { acceptGeminiKindRequest, acceptKindRequest } from './kinds/exchange.js';
import { MOCK_KINDS } from './kinds/answers.js';
import { safeDecode } from './safe-decode.js';

export interface MockOptions extends Partial<MockSettings> {
  /** 0 (the default) picks an ephemeral port. */
  port?: number;
  /** expires_in of the tokens POST /oauth2/token mints, in seconds (default 3600). */
  token_expires_in?: number;
}

export interface MockServer {
  readonly port: number;
  /** http://127.0.0.1:{port}, no trailing slash. */
  readonly url: string;
  stats(): MockStats;
  /** Zeroes the counters (in-flight requests stay counted) and forgets the last request. */
  reset(): void;
  close(): Promise<void>;
}

/** The last model request, exactly as received. */
export interface LastRequest {
  protocol: MockProtocolName;
  method: string;
  path: string;
  query: string;
  /** Header names (lowercase) and values, alternating, as received. */
  rawHeaders: string[];
  /** The raw body bytes, one latin1 char per byte; /mock/last-request shows them as text and base64. */
  bodyLatin1: string;
  model: string | null;
  stream: boolean | null;
  at_ms: number;
}

const HOST = '127.0.0.1';
const BODY_BYTES_MAX = 32 * 1024 * 1024;
const TOKEN_EXPIRES_IN_DEFAULT_SEC = 3600;

const NO_ROUTE_FACTS: RouteFacts = { model: null, stream: null };

export async function startMockProvider(opts: MockOptions = {}): Promise<MockServer> {
  const port = opts.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`mock provider: port must be an integer in 0..65535, got ${String(opts.port)}`);
  const expiresIn = opts.token_expires_in ?? TOKEN_EXPIRES_IN_DEFAULT_SEC;
  if (!Number.isInteger(expiresIn) || expiresIn < 1)
    throw new Error(`mock provider: token_expires_in must be a positive integer, got ${String(opts.token_expires_in)}`);
  let settings: MockSettings;
  try {
    settings = settingsFrom(opts as Partial<Record<MockSettingName, string | number | boolean | null>>);
  } catch (err) {
    throw new Error(`mock provider: ${(err as Error).message}`);
  }
  const provider = new MockProvider(settings, expiresIn);
  const boundPort = await provider.listen(port);
  return {
    port: boundPort,
    url: `http://${HOST}:${boundPort}`,
    stats: () => provider.snapshot(),
    reset: () => provider.resetStats(),
    close: () => provider.close(),
  };
}

export class MockProvider {
  readonly app: TemplatedApp = uWS.App();
  readonly cache = new RenderCache();
  counters: MockStats = emptyStats();
  lastRequest: LastRequest | null = null;
  readonly bodies: BodyMemo;
  closing = false;
  /** fail_ratio's running share of a failure owed (one provider, one counter). */
  failDebt = 0;
  /** Streams held before their last piece (hold_last), by key. */
  readonly holds = new HeldStreams<Exchange>();
  private listenSocket: us_listen_socket | null = null;
  private tokensIssued = 0;
  private spareRecord: LastRequest | null = null;

  constructor(
    readonly runSettings: MockSettings,
    readonly tokenExpiresInSec: number,
  ) {
    this.bodies = new BodyMemo(runSettings);
    const p = MOCK_PROTOCOLS;
    this.app
      .post('/v1/chat/completions', (res, req) => acceptModelRequest(this, p.openai, res, req, NO_ROUTE_FACTS, null))
      .post('/v1/responses', (res, req) => acceptModelRequest(this, p.responses, res, req, NO_ROUTE_FACTS, null))
      .post('/v1/messages', (res, req) => acceptModelRequest(this, p.anthropic, res, req, NO_ROUTE_FACTS, null))
      .post('/api/chat', (res, req) => acceptModelRequest(this, p.ollama, res, req, NO_ROUTE_FACTS, null))
      .post('/v1beta/models/*', (res, req) => acceptGeminiRequest(this, res, req, '/v1beta/models/'))
      // Vertex AI: /v1/projects/{p}/locations/{l}/publishers/google/models/{m}:{action}
      .post('/v1/projects/*', (res, req) => acceptGeminiRequest(this, res, req, '/models/'))
      .post('/model/:modelId/converse', (res, req) => acceptBedrockRequest(this, res, req, false))
      .post('/model/:modelId/converse-stream', (res, req) => acceptBedrockRequest(this, res, req, true))
      // Embeddings and token counts (kinds/): Gemini's param routes yield other actions to the wildcards above.
      .post('/v1/embeddings', (res, req) => acceptKindRequest(this, MOCK_KINDS.openaiEmbeddings, res, req))
      .post('/api/embed', (res, req) => acceptKindRequest(this, MOCK_KINDS.ollamaEmbed, res, req))
      .post('/api/embeddings', (res, req) => acceptKindRequest(this, MOCK_KINDS.ollamaLegacyEmbeddings, res, req))
      .post('/v1/messages/count_tokens', (res, req) => acceptKindRequest(this, MOCK_KINDS.anthropicCountTokens, res, req))
      .post('/v1/responses/input_tokens', (res, req) => acceptKindRequest(this, MOCK_KINDS.responsesInputTokens, res, req))
      .post('/model/:modelId/count-tokens', (res, req) =>
        acceptKindRequest(this, MOCK_KINDS.bedrockCountTokens, res, req, safeDecode(req.getParameter(0) ?? '')),
      )
      .post('/v1beta/models/:model', (res, req) => acceptGeminiKindRequest(this, res, req, 0))
      .post('/v1/projects/:project/locations/:location/publishers/google/models/:model', (res, req) => acceptGeminiKindRequest(this, res, req, 2))
      .post('/oauth2/token', (res, req) => acceptTokenRequest(this, res, req))
      .get('/mock/stats', (res) => writeControlJson(res, '200 OK', JSON.stringify(this.snapshot())))
      .post('/mock/reset', (res) =>
        readWholeBody(res, () => {
          this.resetStats();
          writeControlJson(res, '200 OK', '{"ok":true}');
        }),
      )
      .get('/mock/last-request', (res) => writeLastRequest(this, res))
      .post('/mock/release/:key', (res, req) => {
        const key = req.getParameter(0) ?? '';
        readWholeBody(res, () => {
          if (this.holds.release(key)) writeControlJson(res, '200 OK', '{"released":true}');
          else writeControlJson(res, '404 Not Found', JSON.stringify({ error: `mock provider: no stream is held under ${JSON.stringify(key)}` }));
        });
      })
      // An OTLP/HTTP trace sink for the bench's tracing rows: every export is taken and answered
      // at once (nothing kept), so the rows measure the gateway's side of exporting.
      .post('/v1/traces', (res) => readWholeBody(res, () => writeControlJson(res, '200 OK', '{"partialSuccess":{}}')))
      .any('/*', (res, req) => {
        const what = `${req.getMethod().toUpperCase()} ${req.getUrl()}`;
        readWholeBody(res, () => writeControlJson(res, '404 Not Found', JSON.stringify({ error: `mock provider: no route for ${what}` })));
      });
  }

  listen(port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      this.app.listen(HOST, port, (socket) => {
        if (socket === false) {
          reject(new Error(`mock provider: cannot listen on ${HOST}:${port}`));
          return;
        }
        this.listenSocket = socket;
        resolve(uWS.us_socket_local_port(socket as never));
      });
    });
  }

  snapshot(): MockStats {
    const snap = snapshotStats(this.counters);
    const last = this.lastRequest;
    if (last !== null) {
      snap.last_request = { protocol: last.protocol, method: last.method, path: last.path, model: last.model, stream: last.stream, at_ms: last.at_ms };
    }
    return snap;
  }

  resetStats(): void {
    const inflight = this.counters.inflight;
    this.counters = emptyStats();
    this.counters.inflight = inflight;
    this.counters.peak_inflight = inflight;
    this.failDebt = 0;
    this.spareRecord = this.lastRequest;
    this.lastRequest = null;
  }

  /** Keeps the request as the last one; the record object is reused (one per provider). */
  recordRequest(ex: Exchange, bodyLatin1: string): LastRequest {
    const last = (this.lastRequest ??= this.spareRecord ?? ({} as LastRequest));
    last.protocol = ex.protocol.name;
    last.method = ex.method;
    last.path = ex.path;
    last.query = ex.query;
    last.rawHeaders = ex.rawHeaders;
    last.bodyLatin1 = bodyLatin1;
    last.model = ex.route.model;
    last.stream = ex.route.stream;
    last.at_ms = Date.now();
    return last;
  }

  mintToken(): string {
    this.counters.tokens_minted++;
    return `mock-access-token-${++this.tokensIssued}`;
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    if (this.listenSocket !== null) uWS.us_listen_socket_close(this.listenSocket);
    this.listenSocket = null;
    // App.close (present at runtime, missing from the typings) closes every open connection,
    // including held and paced responses, whose abort handlers then clear their timers.
    (this.app as unknown as { close?: () => void }).close?.();
    this.holds.clear();
    this.cache.clear();
    this.bodies.clear();
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

function acceptModelRequest(
  provider: MockProvider,
  protocol: MockProtocol,
  res: HttpResponse,
  req: HttpRequest,
  route: RouteFacts,
  routeError: string | null,
): void {
  const ex = new Exchange(provider, protocol, res, req, route, routeError);
  res.onAborted(() => onExchangeAborted(ex));
  countArrival(provider.counters, protocol.name);
  res.onData((chunk, isLast) => onExchangeData(ex, chunk, isLast));
}

function acceptGeminiRequest(provider: MockProvider, res: HttpResponse, req: HttpRequest, modelsPrefix: string): void {
  const url = req.getUrl();
  const at = url.lastIndexOf(modelsPrefix);
  const tail = at < 0 ? '' : url.slice(at + modelsPrefix.length);
  const colon = tail.lastIndexOf(':');
  const model = colon > 0 ? safeDecode(tail.slice(0, colon)) : null;
  const action = colon > 0 ? tail.slice(colon + 1) : '';
  let error: string | null = null;
  let stream: boolean | null = null;
  if (model === null) error = `no model in path ${url}`;
  else if (action === 'generateContent') stream = false;
  else if (action === 'streamGenerateContent') {
    stream = true;
    // Without alt=sse Gemini streams a JSON array; the mock plays only the SSE form.
    if (req.getQuery('alt') !== 'sse') error = 'the mock provider streams only with ?alt=sse';
  } else error = `unknown method ${action || '(none)'} in path ${url}`;
  acceptModelRequest(provider, MOCK_PROTOCOLS.gemini, res, req, { model, stream }, error);
}

function acceptBedrockRequest(provider: MockProvider, res: HttpResponse, req: HttpRequest, stream: boolean): void {
  const model = safeDecode(req.getParameter(0));
  acceptModelRequest(provider, MOCK_PROTOCOLS.bedrock, res, req, { model, stream }, model === null ? 'modelId is not valid URL encoding' : null);
}

function onExchangeAborted(ex: Exchange): void {
  ex.gone = true;
  if (!ex.open) return;
  ex.state = 'aborted';
  if (ex.timer !== null) clearTimeout(ex.timer);
  ex.timer = null;
  if (ex.settings.hold_last !== null) ex.provider.holds.drop(ex.settings.hold_last);
  const counters = ex.provider.counters;
  counters.inflight--;
  // A connection the mock closes at shutdown is not a client going away.
  if (!ex.provider.closing) counters.aborted++;
}

function onExchangeData(ex: Exchange, chunk: ArrayBuffer, isLast: boolean): void {
  if (ex.state !== 'reading') return;
  ex.bodyBytes += chunk.byteLength;
  if (ex.bodyBytes > BODY_BYTES_MAX) {
    ex.bodyParts = null;
    writeError(ex, 413, `request body is larger than ${BODY_BYTES_MAX} bytes`);
    return;
  }
  if (!isLast) {
    // uWS recycles the chunk after this callback returns: copy it.
    (ex.bodyParts ??= []).push(Buffer.from(new Uint8Array(chunk)));
    return;
  }
  let bodyLatin1: string;
  if (ex.bodyParts === null) {
    // One latin1 char per byte: a byte-exact copy made while the chunk is still valid.
    bodyLatin1 = Buffer.from(chunk).toString('latin1');
  } else {
    ex.bodyParts.push(Buffer.from(new Uint8Array(chunk)));
    bodyLatin1 = Buffer.concat(ex.bodyParts).toString('latin1');
    ex.bodyParts = null;
  }
  onRequestBody(ex, bodyLatin1);
}

function onRequestBody(ex: Exchange, bodyLatin1: string): void {
  const provider = ex.provider;
  const last = provider.recordRequest(ex, bodyLatin1);
  if (ex.routeError !== null) return writeError(ex, 404, ex.routeError);
  const reading = provider.bodies.read(ex.protocol, ex.path, ex.route, bodyLatin1);
  if (!reading.ok) return writeError(ex, reading.status, reading.message);
  const facts = reading.facts;
  ex.facts = facts;
  ex.reading = reading;
  last.model = facts.model;
  last.stream = facts.stream;
  if (ex.overrides === null) {
    if (reading.settings === null) return writeError(ex, 400, reading.settingsError!);
    ex.settings = reading.settings;
  } else {
    try {
      ex.settings = applySettings(provider.runSettings, ex.overrides, reading.directive);
    } catch (err) {
      if (err instanceof SettingError) return writeError(ex, 400, err.message);
      throw err;
    }
  }
  if (ex.settings.require_auth && !hasCredential(ex.rawHeaders)) return writeError(ex, 401, 'mock provider: no credential (require_auth is on)');
  const reasoningSetting = ex.settings.reasoning;
  ex.reasoning = reasoningSetting === 'on' || (reasoningSetting === 'auto' && reading.reasoningRequested);
  // Reasoning state from an earlier answer must come back as it was given (reasoning/verify.ts).
  const historyError = ex.reasoning ? reading.historyError.reasoning : reading.historyError.plain;
  if (historyError !== null) return writeError(ex, 400, historyError);
  ex.toolName = chooseTool(facts, ex.settings);
  dispatch(ex);
}

function hasCredential(rawHeaders: readonly string[]): boolean {
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i];
    const value = rawHeaders[i + 1] ?? '';
    if (name === 'authorization' && (/^Bearer \S/i.test(value) || value.startsWith('AWS4-HMAC-SHA256 '))) return true;
    if ((name === 'x-api-key' || name === 'x-goog-api-key') && value !== '') return true;
  }
  return false;
}

/** Headers as an object; repeated headers joined with ", " as HTTP allows. */
function headerObject(rawHeaders: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    const value = rawHeaders[i + 1]!;
    const seen = headers[name];
    headers[name] = seen === undefined ? value : seen + ', ' + value;
  }
  return headers;
}

function acceptTokenRequest(provider: MockProvider, res: HttpResponse, req: HttpRequest): void {
  const authorization = req.getHeader('authorization');
  readWholeBody(res, (body) => {
    const answer = answerTokenRequest(body.toString('utf8'), authorization, provider.tokenExpiresInSec, () => provider.mintToken());
    writeControlJson(res, statusLine(answer.status), answer.body, true);
  });
}

function writeLastRequest(provider: MockProvider, res: HttpResponse): void {
  const last = provider.lastRequest;
  if (last === null) {
    writeControlJson(res, '404 Not Found', JSON.stringify({ error: 'mock provider: no model request yet' }));
    return;
  }
  writeControlJson(
    res,
    '200 OK',
    JSON.stringify({
      protocol: last.protocol,
      method: last.method,
      path: last.path,
      query: last.query,
      headers: headerObject(last.rawHeaders),
      body: Buffer.from(last.bodyLatin1, 'latin1').toString('utf8'),
      body_base64: Buffer.from(last.bodyLatin1, 'latin1').toString('base64'),
      model: last.model,
      stream: last.stream,
      at_ms: last.at_ms,
    }),
  );
}

/** Reads a whole (small) request body for the control and token routes, then calls `done`. */
function readWholeBody(res: HttpResponse, done: (body: Buffer) => void): void {
  let aborted = false;
  let bytes = 0;
  const parts: Buffer[] = [];
  res.onAborted(() => {
    aborted = true;
  });
  res.onData((chunk, isLast) => {
    if (aborted || bytes > BODY_BYTES_MAX) return;
    bytes += chunk.byteLength;
    parts.push(Buffer.from(new Uint8Array(chunk)));
    if (isLast) done(Buffer.concat(parts));
  });
}

function writeControlJson(res: HttpResponse, statusLine: string, body: string, noStore = false): void {
  res.cork(() => {
    res.writeStatus(statusLine).writeHeader('content-type', 'application/json');
    if (noStore) res.writeHeader('cache-control', 'no-store');
    res.end(body);
  });
}
