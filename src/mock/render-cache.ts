// Answers are rendered once per (protocol, stream shape, body-relevant settings, tool, model)
// and kept as ready-to-write bytes, so a request costs a map lookup instead of a render.
import { Buffer } from 'node:buffer';
import { mockChunks, mockUsage } from './content.js';
import { structuredAnswerText, textPieces, toolArgumentsText } from './answer-content.js';
import type { MockAnswer, MockProtocol, RequestFacts, StreamParts } from './protocols/types.js';
import { renderKey, type MockSettings } from './settings.js';

export interface RenderedStream {
  readonly head: Buffer;
  readonly pieces: readonly Buffer[];
  readonly tail: Buffer;
  /** head + pieces + tail, for writing an unpaced stream in one go. */
  readonly whole: Buffer;
  /** One buffer per event (SSE frame, NDJSON line; Bedrock: per part), for `chunking=event`. */
  readonly events: readonly Buffer[];
}

/** Bound on cached renders; past it the cache starts over (settings sweeps are finite). */
const ENTRIES_MAX = 4096;

export class RenderCache {
  private readonly json = new Map<string, Buffer>();
  private readonly streams = new Map<string, RenderedStream>();

  jsonBody(protocol: MockProtocol, facts: RequestFacts, toolName: string | null, s: MockSettings, reasoning = false): Buffer {
    const key = cacheKey(protocol, facts, toolName, s, reasoning);
    let body = this.json.get(key);
    if (body === undefined) {
      const render = (padChars: number) => Buffer.from(protocol.renderJson(answerFor(facts, toolName, s, padChars, reasoning)));
      body = renderPadded(render, (b) => b.byteLength, paddable(facts, toolName) ? s.response_bytes : 0, s.chunks);
      if (this.json.size >= ENTRIES_MAX) this.json.clear();
      this.json.set(key, body);
    }
    return body;
  }

  stream(protocol: MockProtocol, facts: RequestFacts, toolName: string | null, s: MockSettings, reasoning = false): RenderedStream {
    const key = cacheKey(protocol, facts, toolName, s, reasoning);
    let stream = this.streams.get(key);
    if (stream === undefined) {
      const render = (padChars: number) => toBuffers(protocol.renderStream(answerFor(facts, toolName, s, padChars, reasoning)), protocol.streamContentType);
      stream = renderPadded(render, (r) => r.whole.byteLength, paddable(facts, toolName) ? s.response_bytes : 0, s.chunks);
      if (this.streams.size >= ENTRIES_MAX) this.streams.clear();
      this.streams.set(key, stream);
    }
    return stream;
  }

  clear(): void {
    this.json.clear();
    this.streams.clear();
  }
}

/** Only free text is padded: padding would break a JSON answer or tool arguments. */
function paddable(facts: RequestFacts, toolName: string | null): boolean {
  return toolName === null && structuredAnswerText(facts.answer) === null;
}

/** The answer's JSON (structured output or tool arguments), or '' for free text. */
function answerJson(facts: RequestFacts, toolName: string | null): string {
  return toolName !== null ? toolArgumentsText(facts.answer, toolName) : (structuredAnswerText(facts.answer) ?? '');
}

function cacheKey(protocol: MockProtocol, facts: RequestFacts, toolName: string | null, s: MockSettings, reasoning: boolean): string {
  const shape = (facts.stream ? (facts.includeUsage ? 'su' : 's') : 'j') + (reasoning ? 'r' : '');
  return `${protocol.name}\n${shape}\n${renderKey(s)}\n${toolName === null ? '-' : '+' + toolName}\n${facts.model}\n${answerJson(facts, toolName)}`;
}

function answerFor(facts: RequestFacts, toolName: string | null, s: MockSettings, padChars: number, reasoning: boolean): MockAnswer {
  const json = answerJson(facts, toolName);
  return {
    model: facts.model,
    toolName,
    pieces: json === '' ? mockChunks(s.chunks, padChars) : textPieces(json, s.chunks),
    usage: mockUsage(s.input_tokens, s.cache_read_tokens, s.chunks, reasoning ? s.reasoning_tokens : 0, s.cache_creation_tokens),
    includeUsage: facts.includeUsage,
    usageOnLast: s.usage_on_last,
    reasoning,
    usageEveryChunk: s.usage_every_chunk,
  };
}

/**
 * Renders with enough padding that the body is about `targetBytes`. The size grows linearly
 * with the padding (each protocol repeats the text a fixed number of times), so one probe
 * render gives the slope.
 */
function renderPadded<T>(render: (padChars: number) => T, sizeOf: (r: T) => number, targetBytes: number, chunks: number): T {
  const bare = render(0);
  const bareBytes = sizeOf(bare);
  if (targetBytes <= bareBytes) return bare;
  const probeChars = Math.max(chunks, 1024);
  const bytesPerChar = (sizeOf(render(probeChars)) - bareBytes) / probeChars;
  if (bytesPerChar <= 0) return bare;
  return render(Math.round((targetBytes - bareBytes) / bytesPerChar));
}

function toBuffers(parts: StreamParts, contentType: string): RenderedStream {
  const head = Buffer.from(parts.head);
  const pieces = parts.pieces.map((p) => Buffer.from(p));
  const tail = Buffer.from(parts.tail);
  const whole = Buffer.concat([head, ...pieces, tail]);
  const separator = contentType.startsWith('text/event-stream') ? '\n\n' : contentType === 'application/x-ndjson' ? '\n' : null;
  const events = separator === null ? [head, ...pieces, tail].filter((b) => b.byteLength > 0) : splitAfter(whole, separator);
  return { head, pieces, tail, whole, events };
}

/** `whole` cut after every `separator` (each part keeps its separator). */
function splitAfter(whole: Buffer, separator: string): Buffer[] {
  const parts: Buffer[] = [];
  let at = 0;
  for (let end = whole.indexOf(separator); end >= 0; end = whole.indexOf(separator, at)) {
    parts.push(whole.subarray(at, end + separator.length));
    at = end + separator.length;
  }
  if (at < whole.length) parts.push(whole.subarray(at));
  return parts;
}
