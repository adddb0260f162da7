// One request of a kind beside chat (embeddings, token counts): read the body, apply the
// settings (run < x-mock-* headers < a `[mock ...]` directive in the request's text), play the
// faults and latency the chat routes play, and answer with the kind's JSON. Counted and
// recorded like a model request, so /mock/stats and /mock/last-request show these too.
//
// server.ts's uWS rules hold here: copy the URL, query and headers before the handler returns;
// attach onAborted first; copy body chunks (uWS recycles them); write inside res.cork after a
// timer; writeStatus before writeHeader.
import { Buffer } from 'node:buffer';
import { STATUS_CODES } from 'node:http';
import type { HttpRequest, HttpResponse } from '../../shared/uws.js';
import { MOCK_PROTOCOLS } from '../protocols/index.js';
import { objectAt } from '../protocols/json-read.js';
import { applySettings } from '../body-memo.js';
import { findDirective, SettingError, type MockSettings } from '../settings.js';
import { CONTEXT_LENGTH_MESSAGES } from '../context-length.js';
import { countArrival, type MockStats } from '../stats.js';
import type { LastRequest } from '../server.js';
import { GEMINI_KIND_ACTIONS, type MockKind } from './answers.js';
import { requestTexts } from './vectors.js';
import { safeDecode } from '../safe-decode.js';

/** What of the provider a kind request uses (MockProvider has all of it). */
export interface KindHost {
  readonly runSettings: MockSettings;
  counters: MockStats;
  lastRequest: LastRequest | null;
  readonly closing: boolean;
  failDebt: number;
}

const BODY_BYTES_MAX = 32 * 1024 * 1024;

interface KindExchange {
  readonly host: KindHost;
  readonly kind: MockKind;
  readonly res: HttpResponse;
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly rawHeaders: string[];
  readonly overrides: Array<[string, string]>;
  readonly pathModel: string | null;
  parts: Buffer[];
  bytes: number;
  timer: NodeJS.Timeout | null;
  /** Finished, aborted or reset: nothing more is written. */
  closed: boolean;
  gone: boolean;
}

/** A kind route with the model (if any) in the path's first parameter. */
export function acceptKindRequest(host: KindHost, kind: MockKind, res: HttpResponse, req: HttpRequest, pathModel: string | null = null): void {
  const rawHeaders: string[] = [];
  const overrides: Array<[string, string]> = [];
  req.forEach((key, value) => {
    rawHeaders.push(key, value);
    if (key.startsWith('x-mock-')) overrides.push([key.slice(7), value]);
  });
  const ex: KindExchange = {
    host,
    kind,
    res,
    method: req.getMethod().toUpperCase(),
    path: req.getUrl(),
    query: req.getQuery() ?? '',
    rawHeaders,
    overrides,
    pathModel,
    parts: [],
    bytes: 0,
    timer: null,
    closed: false,
    gone: false,
  };
  res.onAborted(() => onAborted(ex));
  countArrival(host.counters, kind.protocol);
  res.onData((chunk, isLast) => onData(ex, chunk, isLast));
}

/**
 * `models/{model}:{action}` for the kinds' actions (embedContent, batchEmbedContents,
 * countTokens); any other action is yielded to the chat route registered on the wildcard.
 */
export function acceptGeminiKindRequest(host: KindHost, res: HttpResponse, req: HttpRequest, paramIndex: number): void {
  const segment = req.getParameter(paramIndex) ?? '';
  const colon = segment.lastIndexOf(':');
  const kind = colon > 0 ? GEMINI_KIND_ACTIONS[segment.slice(colon + 1)] : undefined;
  if (kind === undefined) {
    req.setYield(true);
    return;
  }
  acceptKindRequest(host, kind, res, req, safeDecode(segment.slice(0, colon)));
}

function onAborted(ex: KindExchange): void {
  ex.gone = true;
  if (ex.closed) return;
  ex.closed = true;
  if (ex.timer !== null) clearTimeout(ex.timer);
  ex.host.counters.inflight--;
  if (!ex.host.closing) ex.host.counters.aborted++;
}

function onData(ex: KindExchange, chunk: ArrayBuffer, isLast: boolean): void {
  if (ex.closed) return;
  ex.bytes += chunk.byteLength;
  if (ex.bytes > BODY_BYTES_MAX) return answerError(ex, 413, `request body is larger than ${BODY_BYTES_MAX} bytes`);
  ex.parts.push(Buffer.from(new Uint8Array(chunk)));
  if (isLast) onBody(ex, Buffer.concat(ex.parts));
}

function onBody(ex: KindExchange, raw: Buffer): void {
  ex.parts = [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const body = objectAt(parsed);
  record(ex, raw, body);
  if (body === null) return answerError(ex, 400, 'request body must be a JSON object');
  let settings: MockSettings;
  try {
    settings = applySettings(ex.host.runSettings, ex.overrides, lastDirective(body));
  } catch (err) {
    if (err instanceof SettingError) return answerError(ex, 400, err.message);
    throw err;
  }
  if (settings.require_auth && !hasCredential(ex.rawHeaders)) return answerError(ex, 401, 'mock provider: no credential (require_auth is on)');
  play(ex, body, settings);
}

/** The last `[mock ...]` directive anywhere in the request's text (text survives translation). */
function lastDirective(body: Record<string, unknown>): Array<[string, string]> | null {
  let found: Array<[string, string]> | null = null;
  for (const text of requestTexts(body)) found = findDirective(text) ?? found;
  return found;
}

function play(ex: KindExchange, body: Record<string, unknown>, s: MockSettings): void {
  const protocol = MOCK_PROTOCOLS[ex.kind.protocol];
  switch (s.fault) {
    case 'hang':
      return; // held until the client goes away (or the mock closes)
    case 'reset_before':
      return later(ex, s.latency_ms, () => reset(ex));
    case 'context_length':
      return later(ex, s.latency_ms, () => answerError(ex, 400, CONTEXT_LENGTH_MESSAGES[protocol.name]));
    case 'insufficient_quota':
      return later(ex, s.latency_ms, () =>
        answerError(ex, 429, 'You exceeded your current quota, please check your plan and billing details. (insufficient_quota)'),
      );
    default:
      break;
  }
  if (s.fail_ratio > 0) {
    ex.host.failDebt += s.fail_ratio;
    if (ex.host.failDebt >= 1 - 1e-9) {
      ex.host.failDebt -= 1;
      return later(ex, s.latency_ms, () => answerError(ex, 503, 'mock provider: fail_ratio'));
    }
  }
  if (s.status !== 200) return later(ex, s.latency_ms, () => answerError(ex, s.status, `mock provider: forced status ${s.status}`, s.retry_after));
  const answer = ex.kind.answer(body, ex.pathModel, s);
  if ('error' in answer) return later(ex, s.latency_ms, () => answerError(ex, 400, answer.error));
  const cut = s.fault === 'reset_during';
  later(ex, s.latency_ms, () => {
    ex.res.cork(() => {
      writeHead(ex, 200);
      if (cut) ex.res.write(answer.body.slice(0, answer.body.length >> 1));
      else ex.res.end(answer.body);
    });
    if (cut) reset(ex);
    else done(ex);
  });
}

function later(ex: KindExchange, delayMs: number, step: () => void): void {
  if (delayMs <= 0) return step();
  ex.timer = setTimeout(() => {
    ex.timer = null;
    if (!ex.closed) step();
  }, delayMs);
}

function writeHead(ex: KindExchange, status: number): void {
  const protocol = MOCK_PROTOCOLS[ex.kind.protocol];
  ex.res.writeStatus(`${status} ${STATUS_CODES[status] ?? 'Status'}`);
  ex.res.writeHeader('content-type', protocol.jsonContentType);
  for (const [name, value] of protocol.extraHeaders) ex.res.writeHeader(name, value);
}

function answerError(ex: KindExchange, status: number, message: string, retryAfterSec: number | null = null): void {
  if (ex.closed) return;
  const error = MOCK_PROTOCOLS[ex.kind.protocol].renderError(status, message);
  ex.res.cork(() => {
    writeHead(ex, status);
    for (const [name, value] of error.headers) ex.res.writeHeader(name, value);
    if (retryAfterSec !== null) ex.res.writeHeader('retry-after', String(retryAfterSec));
    ex.res.end(error.body);
  });
  done(ex);
}

function done(ex: KindExchange): void {
  ex.closed = true;
  ex.host.counters.inflight--;
  ex.host.counters.completed++;
}

/** Closes the connection a turn later (inside a cork a close would drop what was just written). */
function reset(ex: KindExchange): void {
  ex.closed = true;
  ex.host.counters.inflight--;
  ex.host.counters.resets++;
  setImmediate(() => {
    if (!ex.gone) ex.res.close();
  });
}

function record(ex: KindExchange, raw: Buffer, body: Record<string, unknown> | null): void {
  ex.host.lastRequest = {
    protocol: ex.kind.protocol,
    method: ex.method,
    path: ex.path,
    query: ex.query,
    rawHeaders: ex.rawHeaders,
    bodyLatin1: raw.toString('latin1'),
    model: body === null ? ex.pathModel : ex.kind.model(body, ex.pathModel),
    stream: false,
    at_ms: Date.now(),
  };
}

function hasCredential(rawHeaders: readonly string[]): boolean {
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i];
    const value = rawHeaders[i + 1]!;
    if (name === 'authorization' && (/^Bearer \S/i.test(value) || value.startsWith('AWS4-HMAC-SHA256 '))) return true;
    if ((name === 'x-api-key' || name === 'x-goog-api-key') && value !== '') return true;
  }
  return false;
}
