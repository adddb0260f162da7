// The mock model provider: plays the upstream vendor for all six wire protocols, with settable
// latency, token rate and faults. The only uWS importer under src/mock.
//
// uWS rules kept here: copy the URL, query and headers before the handler returns; attach
// onAborted before anything asynchronous; copy body chunks (uWS recycles them); write inside
// res.cork after any timer; writeStatus before writeHeader.
import { Buffer } from 'node:buffer';
import { STATUS_CODES } from 'node:http';
import uWS from '../shared/uws.js';
import type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket } from '../shared/uws.js';
import { MOCK_DEFAULT_TOOL_NAME } from './content.js';
import { answerTokenRequest } from './oauth.js';
import { MOCK_PROTOCOLS } from './protocols/index.js';
import type { MockProtocol, MockProtocolName, RenderedError, RequestFacts, RouteFacts } from './protocols/types.js';
import { RenderCache, type RenderedStream } from './render-cache.js';
import { SettingError, settingsFrom, type MockSettingName, type MockSettings } from './settings.js';
import { applySettings, BodyMemo, type BodyFacts } from './body-memo.js';
import { emptyStats, snapshotStats, type MockStats } from './stats.js';
import { CONTEXT_LENGTH_MESSAGES } from './context-length.js';
import { HeldStreams } from './held-streams.js';
import { acceptGeminiKindRequest, acceptKindRequest } from './kinds/exchange.js';
import { MOCK_KINDS } from './kinds/answers.js';

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
/** Node timers do not fire faster than 1 ms; faster token rates write several pieces a tick. */
const TIMER_MS_MIN = 1;
/** A paced tick's bytes per cork, under uWS's 16 KiB cork buffer; what uWS adds around a chunk. */
const TICK_CORK_BYTES = 15 * 1024;
const CHUNK_FRAMING_BYTES = 12;

const STATUS_LINES: string[] = [];
for (let code = 100; code < 600; code++) STATUS_LINES[code] = `${code} ${STATUS_CODES[code] ?? 'Status'}`;
const statusLine = (code: number): string => STATUS_LINES[code] ?? `${code} Status`;

const NO_ROUTE_FACTS: RouteFacts = { model: null, stream: null };

export async function startMockProvider(opts: MockOptions = {}): Promise<MockServer> {
  const port = opts.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`mock provider: port must be an integer in 0..65535, got ${String(opts.port)}`);
  const expiresIn = opts.token_expires_in ?? TOKEN_EXPIRES_IN_DEFAULT_SEC;
  if (!Number.isInteger(expiresIn) || expiresIn < 1) throw new Error(`mock provider: token_expires_in must be a positive integer, got ${String(opts.token_expires_in)}`);
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

class MockProvider {
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

  constructor(readonly runSettings: MockSettings, readonly tokenExpiresInSec: number) {
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
      .post('/model/:modelId/count-tokens', (res, req) => acceptKindRequest(this, MOCK_KINDS.bedrockCountTokens, res, req, safeDecode(req.getParameter(0) ?? '')))
      .post('/v1beta/models/:model', (res, req) => acceptGeminiKindRequest(this, res, req, 0))
      .post('/v1/projects/:project/locations/:location/publishers/google/models/:model', (res, req) => acceptGeminiKindRequest(this, res, req, 2))
      .post('/oauth2/token', (res, req) => acceptTokenRequest(this, res, req))
      .get('/mock/stats', (res) => writeControlJson(res, '200 OK', JSON.stringify(this.snapshot())))
      .post('/mock/reset', (res) => readWholeBody(res, () => {
        this.resetStats();
        writeControlJson(res, '200 OK', '{"ok":true}');
      }))
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
    const last = (this.lastRequest ??= this.spareRecord ?? {} as LastRequest);
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

type ExchangeState = 'reading' | 'waiting' | 'streaming' | 'hanging' | 'done' | 'aborted' | 'reset';

/** One model request and its response. */
class Exchange {
  state: ExchangeState = 'reading';
  readonly method: string;
  readonly path: string;
  readonly query: string;
  /** Header names and values, alternating: cheaper to collect than an object on the hot path. */
  readonly rawHeaders: string[] = [];
  /** x-mock-* headers, in arrival order; null when there are none. */
  overrides: Array<[string, string]> | null = null;
  bodyParts: Buffer[] | null = null;
  bodyBytes = 0;
  facts: RequestFacts | null = null;
  /** What the body said; its answer slots serve requests whose settings came from the body alone. */
  reading: BodyFacts | null = null;
  settings: MockSettings;
  toolName: string | null = null;
  /** The answer starts with reasoning (setting `reasoning`, or the request asked for it). */
  reasoning = false;
  timer: NodeJS.Timeout | null = null;
  rendered: RenderedStream | null = null;
  nextPiece = 0;
  /** The connection is closed; the response must not be touched any more. */
  gone = false;
  /** Pieces to send before destroying the connection (fault reset_during); -1 = all. */
  cutAfterPieces = -1;
  /** hold_last: the last piece may go (the client released the stream, or the hold ran out). */
  released = false;

  constructor(
    readonly provider: MockProvider,
    readonly protocol: MockProtocol,
    readonly res: HttpResponse,
    req: HttpRequest,
    readonly route: RouteFacts,
    /** A problem with the path, answered once the body is read (so it is still recorded). */
    readonly routeError: string | null,
  ) {
    this.method = req.getMethod().toUpperCase();
    this.path = req.getUrl();
    this.query = req.getQuery() ?? '';
    this.settings = provider.runSettings;
    const rawHeaders = this.rawHeaders;
    req.forEach((key, value) => {
      rawHeaders.push(key, value);
      if (key.startsWith('x-mock-')) (this.overrides ??= []).push([key.slice(7), value]);
    });
  }

  get open(): boolean {
    return this.state !== 'done' && this.state !== 'aborted' && this.state !== 'reset';
  }
}

function acceptModelRequest(provider: MockProvider, protocol: MockProtocol, res: HttpResponse, req: HttpRequest, route: RouteFacts, routeError: string | null): void {
  const ex = new Exchange(provider, protocol, res, req, route, routeError);
  res.onAborted(() => onExchangeAborted(ex));
  const counters = provider.counters;
  counters.requests++;
  counters.requests_by_protocol[protocol.name]++;
  counters.inflight++;
  if (counters.inflight > counters.peak_inflight) counters.peak_inflight = counters.inflight;
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

function safeDecode(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
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

/** The tool a forced tool choice names when it is declared, else the first declared tool; none with tool choice none. */
function chooseTool(facts: RequestFacts, s: MockSettings): string | null {
  if (s.mode === 'text') return null;
  const forced = facts.answer?.forcedTool ?? null;
  const tool = forced !== null && facts.answer!.toolSchemas.has(forced) ? forced : facts.firstToolName;
  if (s.mode === 'tool') return tool ?? MOCK_DEFAULT_TOOL_NAME;
  return tool !== null && !facts.lastIsToolResult && facts.answer?.toolsOff !== true ? tool : null;
}

/** Time a non-stream answer takes: first token, then the rest at the token rate. */
function generationMs(s: MockSettings): number {
  return s.ttft_ms + (s.tokens_per_sec > 0 ? ((s.chunks - 1) * 1000) / s.tokens_per_sec : 0);
}

function dispatch(ex: Exchange): void {
  const s = ex.settings;
  if (s.fault === 'hang') {
    ex.state = 'hanging'; // held until the client goes away (or the mock closes)
    return;
  }
  if (s.fault === 'reset_before') return later(ex, s.latency_ms, resetConnection);
  if (s.fault === 'context_length') return later(ex, s.latency_ms, writeContextLength);
  if (s.fault === 'insufficient_quota') return later(ex, s.latency_ms, writeInsufficientQuota);
  if (s.fail_ratio > 0) {
    // Spread evenly: every time the debt reaches one request, that request fails.
    const provider = ex.provider;
    provider.failDebt += s.fail_ratio;
    if (provider.failDebt >= 1 - 1e-9) {
      provider.failDebt -= 1;
      return later(ex, s.latency_ms, writeRatioFailure);
    }
  }
  if (s.status !== 200) return later(ex, s.latency_ms, writeForcedStatus);
  if (ex.facts!.stream) return later(ex, s.latency_ms, startStream);
  later(ex, s.latency_ms + generationMs(s), writeJsonAnswer);
}

/** Runs `step` now, or after `delayMs` on a timer (timers only when a delay is set). */
function later(ex: Exchange, delayMs: number, step: (ex: Exchange) => void): void {
  if (delayMs <= 0) {
    step(ex);
    return;
  }
  if (ex.state === 'reading') ex.state = 'waiting';
  ex.timer = setTimeout(runLater, Math.max(TIMER_MS_MIN, delayMs), ex, step);
}

function runLater(ex: Exchange, step: (ex: Exchange) => void): void {
  ex.timer = null;
  if (ex.open) step(ex);
}

function writeHead(ex: Exchange, status: number, contentType: string): void {
  const res = ex.res;
  res.writeStatus(statusLine(status));
  res.writeHeader('content-type', contentType);
  for (const [name, value] of ex.protocol.extraHeaders) res.writeHeader(name, value);
}

function writeRenderedError(ex: Exchange, status: number, error: RenderedError, retryAfterSec: number | null): void {
  ex.res.cork(() => {
    writeHead(ex, status, ex.protocol.jsonContentType);
    for (const [name, value] of error.headers) ex.res.writeHeader(name, value);
    if (retryAfterSec !== null) ex.res.writeHeader('retry-after', String(retryAfterSec));
    ex.res.end(error.body);
  });
  finish(ex);
}

function writeError(ex: Exchange, status: number, message: string): void {
  writeRenderedError(ex, status, ex.protocol.renderError(status, message), null);
}

function writeContextLength(ex: Exchange): void {
  writeRenderedError(ex, 400, ex.protocol.renderError(400, CONTEXT_LENGTH_MESSAGES[ex.protocol.name]), null);
}

/** Quota exhausted, as OpenAI words it (the status is its 429; the body says insufficient_quota). */
function writeInsufficientQuota(ex: Exchange): void {
  writeRenderedError(ex, 429, ex.protocol.renderError(429, 'You exceeded your current quota, please check your plan and billing details. (insufficient_quota)'), null);
}

function writeRatioFailure(ex: Exchange): void {
  writeRenderedError(ex, 503, ex.protocol.renderError(503, 'mock provider: fail_ratio'), null);
}

function writeForcedStatus(ex: Exchange): void {
  const s = ex.settings;
  writeRenderedError(ex, s.status, ex.protocol.renderError(s.status, `mock provider: forced status ${s.status}`), s.retry_after);
}

/** The answer bytes: from the body's own slot when its settings apply unchanged, else the cache. */
function renderedJson(ex: Exchange): Buffer {
  const reading = ex.reading!;
  if (ex.settings !== reading.settings) return ex.provider.cache.jsonBody(ex.protocol, reading.facts, ex.toolName, ex.settings, ex.reasoning);
  return (reading.json ??= ex.provider.cache.jsonBody(ex.protocol, reading.facts, ex.toolName, ex.settings, ex.reasoning));
}

function renderedStream(ex: Exchange): RenderedStream {
  const reading = ex.reading!;
  if (ex.settings !== reading.settings) return ex.provider.cache.stream(ex.protocol, reading.facts, ex.toolName, ex.settings, ex.reasoning);
  return (reading.stream ??= ex.provider.cache.stream(ex.protocol, reading.facts, ex.toolName, ex.settings, ex.reasoning));
}

function writeJsonAnswer(ex: Exchange): void {
  const body = renderedJson(ex);
  const cut = ex.settings.fault === 'reset_during';
  ex.res.cork(() => {
    writeHead(ex, 200, ex.protocol.jsonContentType);
    if (cut) ex.res.write(body.subarray(0, body.byteLength >> 1));
    else ex.res.end(body);
  });
  if (cut) resetConnection(ex);
  else finish(ex);
}

function startStream(ex: Exchange): void {
  const s = ex.settings;
  const stream = renderedStream(ex);
  const res = ex.res;
  ex.rendered = stream;
  ex.cutAfterPieces = s.fault === 'reset_during' ? Math.ceil(stream.pieces.length / 2) : -1;
  const unpaced = s.ttft_ms === 0 && s.tokens_per_sec === 0 && ex.cutAfterPieces < 0 && s.hold_last === null;
  if (unpaced && s.chunking === 'event') {
    // Unpaced, one event per write: every cork ends in its own send, back to back.
    const events = stream.events;
    res.cork(() => {
      writeHead(ex, 200, ex.protocol.streamContentType);
      res.write(events[0]!);
    });
    for (let i = 1; i < events.length; i++) res.cork(() => res.write(events[i]!));
    res.cork(() => res.end());
    finish(ex);
    return;
  }
  if (unpaced) {
    // Unpaced: the whole stream in one corked write.
    res.cork(() => {
      writeHead(ex, 200, ex.protocol.streamContentType);
      res.write(stream.whole);
      res.end();
    });
    finish(ex);
    return;
  }
  res.cork(() => {
    writeHead(ex, 200, ex.protocol.streamContentType);
    if (stream.head.byteLength > 0) res.write(stream.head);
  });
  ex.state = 'streaming';
  later(ex, s.ttft_ms, writeNextPieces);
}

/** Writes the next piece(s) of a paced stream, then schedules the rest or ends it. */
function writeNextPieces(ex: Exchange): void {
  const s = ex.settings;
  const stream = ex.rendered!;
  const total = stream.pieces.length;
  const perTick = s.tokens_per_sec > 0 ? Math.max(1, Math.ceil((s.tokens_per_sec * TIMER_MS_MIN) / 1000)) : total;
  let stop = Math.min(total, ex.nextPiece + perTick);
  if (ex.cutAfterPieces >= 0) stop = Math.min(stop, ex.cutAfterPieces);
  const holdAt = s.hold_last !== null && !ex.released ? total - 1 : total;
  stop = Math.min(stop, holdAt);
  const ends = stop === total && ex.cutAfterPieces < 0;
  const res = ex.res;
  // Corks of at most TICK_CORK_BYTES (a piece is far shorter): uWS 20.30 drops a write that
  // overflows its 16 KiB cork buffer while the socket is nearly full (src/worker/corked-send.ts),
  // as it is when the gateway paused reading this stream.
  let i = ex.nextPiece;
  let ended = false;
  const writeSome = (): void => {
    let bytes = 0;
    while (i < stop && (bytes === 0 || bytes + stream.pieces[i]!.byteLength + CHUNK_FRAMING_BYTES <= TICK_CORK_BYTES)) {
      bytes += stream.pieces[i]!.byteLength + CHUNK_FRAMING_BYTES;
      res.write(stream.pieces[i++]!);
    }
    if (ends && i === stop && bytes + stream.tail.byteLength + 2 * CHUNK_FRAMING_BYTES <= TICK_CORK_BYTES) {
      res.write(stream.tail);
      res.end();
      ended = true;
    }
  };
  while (i < stop) res.cork(writeSome);
  if (ends && !ended) {
    res.cork(() => {
      res.write(stream.tail);
      res.end();
    });
  }
  ex.nextPiece = stop;
  if (ends) return finish(ex);
  if (ex.cutAfterPieces >= 0 && stop >= ex.cutAfterPieces) return resetConnection(ex);
  if (stop === holdAt && holdAt < total) {
    ex.timer = ex.provider.holds.hold(s.hold_last!, ex, releaseHeld);
    return;
  }
  later(ex, s.tokens_per_sec > 0 ? (perTick * 1000) / s.tokens_per_sec : 0, writeNextPieces);
}

/** hold_last: the client saw the first pieces (or the hold ran out); the rest goes now. */
function releaseHeld(ex: Exchange): void {
  ex.timer = null;
  ex.released = true;
  if (ex.open) writeNextPieces(ex);
}

function finish(ex: Exchange): void {
  ex.state = 'done';
  const counters = ex.provider.counters;
  counters.inflight--;
  counters.completed++;
}

/**
 * Destroys the connection (faults reset_before and reset_during); not counted as an abort.
 * The close waits a turn: inside a uWS callback the socket is corked, and closing at once
 * would drop the partial answer just written.
 */
function resetConnection(ex: Exchange): void {
  ex.state = 'reset';
  const counters = ex.provider.counters;
  counters.inflight--;
  counters.resets++;
  setImmediate(closeConnection, ex);
}

function closeConnection(ex: Exchange): void {
  if (!ex.gone) ex.res.close();
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
  writeControlJson(res, '200 OK', JSON.stringify({
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
  }));
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
