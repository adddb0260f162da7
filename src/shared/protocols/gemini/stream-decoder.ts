// Gemini `data: {GenerateContentResponse}` chunks -> model stream events. Text parts stream as
// one text block until something else comes; each functionCall part is a whole tool block
// (its args arrive as one object). finishReason ends the content; usageMetadata is a running
// total the chunks repeat, so the latest one is reported after finish.
import type { FinishReason, Usage } from '../../model/types.js';
import { FramedStreamDecoder } from '../framing/stream-decoder-base.js';
import { GatewayError } from '../../errors.js';
import { isJsonObject, type JsonObject } from '../framing/json-field.js';
import { SseReader, dataStart, eventEndsAt } from '../framing/sse.js';
import type { LaneMemo } from '../codec.js';
import { JsonShapes } from '../framing/shaped-parse.js';
import { finishFromGemini, isFinishReason } from './finish-reason.js';
import { callId, candidateParts, firstCandidate, SYNTHESIZED_RESPONSE_ID } from './response.js';
import { usageFromGemini } from './usage.js';
import { GeminiTextChunkReader } from './stream-fast-path.js';
import { translateFastPath } from '../fast-path/switch.js';

const NONE = -1;
/** The kinds a stream's chunks are kept under in the lane's JsonShapes. */
const FIRST_CHUNK = 'first chunk';
const CHUNK = 'chunk';

export class GeminiStreamDecoder extends FramedStreamDecoder {
  private readonly reader = new SseReader(
    (_event, data) => this.onChunk(data),
    translateFastPath ? (text, start, end) => this.readInPlace(text, start, end) : null,
    translateFastPath ? (text, at) => this.readLine(text, at) : null,
  );
  private started = false;
  private finished = false;
  private nextIndex = 0;
  /** The open text block's index, or NONE. */
  private textIndex = NONE;
  private calls = 0;
  private latestUsage: Usage | null = null;
  private usageReported = false;
  private readonly fast: GeminiTextChunkReader | null;
  /** The lane's learnt event shapes (shaped-parse.ts); null when the fast paths are off. */
  private readonly shapes: JsonShapes | null;

  /** `memo`: the lane's, where its text-chunk layout and its chunks' shapes are kept. */
  constructor(memo?: LaneMemo) {
    super();
    this.fast = translateFastPath ? new GeminiTextChunkReader(memo === undefined ? null : (memo.geminiText ??= { text: null })) : null;
    this.shapes = translateFastPath && memo !== undefined ? (memo.eventShapes ??= new JsonShapes()) : null;
  }

  protected feed(chunk: Uint8Array): void {
    this.reader.push(chunk);
  }

  protected flush(): void {
    this.reader.end();
  }

  protected complete(): void {
    if (!this.finished) throw new GatewayError('upstream_error', 'gemini stream ended before a finishReason');
    if (!this.usageReported && this.latestUsage !== null) this.out.push({ type: 'usage', usage: this.latestUsage });
    this.out.push({ type: 'end' });
  }

  /**
   * The event at `text[at]`, its line ends not yet searched for: a text chunk the lane's
   * layout matches, when a blank line follows it (its end, returned), is read here; anything
   * else is left to `readInPlace` (-1).
   */
  private readLine(text: string, at: number): number {
    const fast = this.fastReader();
    if (fast === null) return -1;
    const start = dataStart(text, at);
    if (start < 0) return -1;
    const end = fast.lineEnd(text, start);
    if (end < 0 || !eventEndsAt(text, end, false)) return -1;
    this.onTextChunk(fast);
    return end;
  }

  /** A one-line event still in the upstream's text: the common text chunk is read there. */
  private readInPlace(text: string, start: number, end: number): boolean {
    const fast = this.fastReader();
    if (fast === null || !fast.read(text, start, end)) return false;
    this.onTextChunk(fast);
    return true;
  }

  private onChunk(data: string): void {
    if (this.failure !== null || data.length === 0) return;
    const fast = this.fastReader();
    if (fast !== null && fast.read(data, 0, data.length)) {
      // The common text chunk, read without parsing it (same events as below), when the SSE
      // reader's parser had it (an event cut across upstream chunks, other line ends).
      this.onTextChunk(fast);
      return;
    }
    let chunk: unknown;
    try {
      // The first chunk and the finishing one repeat the lane's earlier ones but for their
      // values: parsed by their shapes (the value is read here at once, as the shapes want).
      chunk = this.shapes !== null ? this.shapes.parse(this.started ? CHUNK : FIRST_CHUNK, data) : JSON.parse(data);
    } catch {
      this.failure = new GatewayError('upstream_error', 'gemini stream: malformed JSON in a chunk');
      return;
    }
    if (!isJsonObject(chunk)) return;
    if (isJsonObject(chunk.error)) return this.onError(chunk.error);
    if (!this.started) {
      this.started = true;
      const id = typeof chunk.responseId === 'string' ? chunk.responseId : SYNTHESIZED_RESPONSE_ID;
      this.out.push({ type: 'start', id, model: typeof chunk.modelVersion === 'string' ? chunk.modelVersion : '' });
    }
    const hasUsage = isJsonObject(chunk.usageMetadata);
    if (hasUsage) this.latestUsage = usageFromGemini(chunk.usageMetadata);
    const candidate = firstCandidate(chunk);
    if (!this.finished) {
      for (const part of candidateParts(candidate)) if (isJsonObject(part)) this.onPart(part);
      if (isFinishReason(candidate?.finishReason)) {
        this.finishWith(finishFromGemini(candidate?.finishReason, this.calls > 0));
      } else if (candidate === undefined && isJsonObject(chunk.promptFeedback) && typeof chunk.promptFeedback.blockReason === 'string') {
        this.finishWith('content_filter');
      }
    }
    if (this.finished && hasUsage && this.latestUsage !== null) {
      this.usageReported = true;
      this.out.push({ type: 'usage', usage: this.latestUsage });
    }
  }

  /**
   * The fast path's reader while it may read: after the first chunk (which starts the stream)
   * and before finish (after it, parts are dropped and usage is reported at once); else null.
   */
  private fastReader(): GeminiTextChunkReader | null {
    return this.started && !this.finished && this.failure === null ? this.fast : null;
  }

  /** What onChunk does for a chunk of one non-empty text part, no finishReason, and maybe usageMetadata. */
  private onTextChunk(fast: GeminiTextChunkReader): void {
    if (fast.usage !== null) this.latestUsage = usageFromGemini(fast.usage);
    this.text(fast.text, fast.literal);
  }

  private onPart(p: JsonObject): void {
    if (typeof p.text === 'string') {
      if (p.thought === true || p.text.length === 0) return;
      this.text(p.text);
    } else if (isJsonObject(p.functionCall) && typeof p.functionCall.name === 'string') {
      this.closeText();
      const fc = p.functionCall;
      const index = this.nextIndex++;
      this.out.push(
        { type: 'block_start', index, kind: 'tool_call', id: callId(fc, this.calls++), name: fc.name as string },
        { type: 'tool_args_delta', index, json: JSON.stringify(fc.args ?? {}) },
        { type: 'block_stop', index },
      );
    }
  }

  /** `literal`: the text as its JSON literal, when the fast path read it without escapes. */
  private text(text: string, literal?: string): void {
    if (this.textIndex === NONE) {
      this.textIndex = this.nextIndex++;
      this.out.push({ type: 'block_start', index: this.textIndex, kind: 'text' });
    }
    this.out.push({ type: 'text_delta', index: this.textIndex, text, literal });
  }

  private closeText(): void {
    if (this.textIndex !== NONE) {
      this.out.push({ type: 'block_stop', index: this.textIndex });
      this.textIndex = NONE;
    }
  }

  private finishWith(reason: FinishReason): void {
    this.closeText();
    this.finished = true;
    this.out.push({ type: 'finish', reason });
  }

  private onError(e: JsonObject): void {
    const status = typeof e.status === 'string' ? e.status : String(e.code ?? 'error');
    const message = typeof e.message === 'string' ? e.message : 'no message';
    this.failure = new GatewayError('upstream_error', `gemini stream error (${status}): ${message}`);
  }
}
