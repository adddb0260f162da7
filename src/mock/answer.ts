// The mock's answer to a model request whose body it has read: the faults, the pacing of the
// first token and the token rate, the JSON answer or the stream written piece by piece.
import type { Buffer } from 'node:buffer';
import { MOCK_DEFAULT_TOOL_NAME } from './content.js';
import { CONTEXT_LENGTH_MESSAGES } from './context-length.js';
import { statusLine, type Exchange } from './exchange.js';
import type { RenderedError, RequestFacts } from './protocols/types.js';
import type { RenderedStream } from './render-cache.js';
import type { MockSettings } from './settings.js';

/** Node timers do not fire faster than 1 ms; faster token rates write several pieces a tick. */
const TIMER_MS_MIN = 1;
/** A paced tick's bytes per cork, under uWS's 16 KiB cork buffer; what uWS adds around a chunk. */
const TICK_CORK_BYTES = 15 * 1024;
const CHUNK_FRAMING_BYTES = 12;

/** The tool a forced tool choice names when it is declared, else the first declared tool; none with tool choice none. */
export function chooseTool(facts: RequestFacts, s: MockSettings): string | null {
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

export function dispatch(ex: Exchange): void {
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

export function writeError(ex: Exchange, status: number, message: string): void {
  writeRenderedError(ex, status, ex.protocol.renderError(status, message), null);
}

function writeContextLength(ex: Exchange): void {
  writeRenderedError(ex, 400, ex.protocol.renderError(400, CONTEXT_LENGTH_MESSAGES[ex.protocol.name]), null);
}

/** Quota exhausted, as OpenAI words it (the status is its 429; the body says insufficient_quota). */
function writeInsufficientQuota(ex: Exchange): void {
  writeRenderedError(
    ex,
    429,
    ex.protocol.renderError(429, 'You exceeded your current quota, please check your plan and billing details. (insufficient_quota)'),
    null,
  );
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
