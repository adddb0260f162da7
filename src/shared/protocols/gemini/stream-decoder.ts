// Gemini `data: {GenerateContentResponse}` chunks -> model stream events. Text parts stream as
// one text block until something else comes; thought parts as one reasoning block, which a
// thoughtSignature closes; each functionCall part is a whole tool block (its args arrive as one
// object), after a reasoning block of its own for its signature (thought.ts). finishReason ends
// the content; usageMetadata is a running total the chunks repeat, so the latest one is
// reported after finish (and the first one's input side with the start).
import type { FinishReason, StreamEvent, Usage } from '../../model/types.js';
import { ReaderStreamDecoder } from '../framing/stream-decoder-base.js';
import { GatewayError } from '../../errors.js';
import { isJsonObject, type JsonObject } from '../framing/json-field.js';
import { SseReader, dataStart, eventEndsAt } from '../framing/sse.js';
import type { FastPathMemo } from '../fast-path/codec-fast-path.js';
import { finishFromGemini, isFinishReason } from './finish-reason.js';
import { callId, candidateParts, firstCandidate, SYNTHESIZED_RESPONSE_ID } from './response.js';
import { usageFromGemini } from './usage.js';
import { GeminiTextChunkReader } from './stream-fast-path.js';
import { translateFastPath } from '../fast-path/switch.js';
import { partsOfSignature, partsOfThought, signatureOf } from './thought.js';
import type { ReasoningPart } from '../../model/types.js';
import { inputSide } from '../../model/usage.js';
import { stateEventOf } from '../reasoning/open-block.js';
import { SequentialBlocks } from '../framing/sequential-blocks.js';

/** The kinds a stream's chunks are kept under in the lane's JsonShapes. */
const FIRST_CHUNK = 'first chunk';
const CHUNK = 'chunk';

export class GeminiStreamDecoder extends ReaderStreamDecoder {
  protected readonly reader = new SseReader(
    (_event, data) => this.onChunk(data),
    translateFastPath ? (text, start, end) => this.readInPlace(text, start, end) : null,
    translateFastPath ? (text, at) => this.readLine(text, at) : null,
  );
  private started = false;
  private finished = false;
  /** The open reasoning block holds thought parts not yet signed. */
  private readonly blocks = new SequentialBlocks();
  private calls = 0;
  private latestUsage: Usage | null = null;
  private usageReported = false;
  private readonly fast: GeminiTextChunkReader | null;

  /** `memo`: the lane's, where its text-chunk layout and its chunks' shapes are kept. */
  constructor(memo?: FastPathMemo) {
    super(memo);
    this.fast = translateFastPath ? new GeminiTextChunkReader(memo === undefined ? null : (memo.geminiText ??= { text: null })) : null;
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
    // The first chunk and the finishing one repeat the lane's earlier ones but for their
    // values: parsed by their shapes (the value is read here at once, as the shapes want).
    const chunk = this.parsedEvent(this.started ? CHUNK : FIRST_CHUNK, data);
    if (chunk === undefined) return this.fail('gemini stream: malformed JSON in a chunk');
    if (!isJsonObject(chunk)) return;
    if (isJsonObject(chunk.error)) return this.onError(chunk.error);
    const hasUsage = isJsonObject(chunk.usageMetadata);
    if (hasUsage) this.latestUsage = usageFromGemini(chunk.usageMetadata);
    if (!this.started) {
      this.started = true;
      const id = typeof chunk.responseId === 'string' ? chunk.responseId : SYNTHESIZED_RESPONSE_ID;
      const start: StreamEvent = { type: 'start', id, model: typeof chunk.modelVersion === 'string' ? chunk.modelVersion : '' };
      // Gemini counts the prompt on its first chunk: callers whose stream opens with it get it at once.
      if (this.latestUsage !== null && this.latestUsage.input + this.latestUsage.cacheRead > 0) start.usage = inputSide(this.latestUsage);
      this.out.push(start);
    }
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
    this.blocks.textDelta(this.out, fast.text, fast.literal);
  }

  private onPart(p: JsonObject): void {
    const signature = signatureOf(p);
    if (typeof p.text === 'string' && p.thought === true) {
      this.thought(p.text, signature);
    } else if (typeof p.text === 'string') {
      if (p.text.length > 0) this.blocks.textDelta(this.out, p.text);
      if (signature !== undefined) this.signed(partsOfSignature(signature)); // signs the text before it
    } else if (isJsonObject(p.functionCall) && typeof p.functionCall.name === 'string') {
      this.blocks.closeOpen(this.out);
      if (signature !== undefined) this.signed(partsOfSignature(signature)); // signs the call after it
      const fc = p.functionCall;
      const index = this.blocks.take();
      this.out.push(
        { type: 'block_start', index, kind: 'tool_call', id: callId(fc, this.calls++), name: fc.name as string },
        { type: 'tool_args_delta', index, json: JSON.stringify(fc.args ?? {}) },
        { type: 'block_stop', index },
      );
    }
  }

  /** A thought part: its text goes to the open reasoning block; a signature on it is the block's state and closes it. */
  private thought(text: string, signature: string | undefined): void {
    this.blocks.closeText(this.out);
    const parts = partsOfThought(text, signature);
    if (parts.length !== 1 || parts[0]!.family !== 'gemini') {
      // A token (a gateway of ours upstream): its parts whole.
      this.blocks.closeReasoning(this.out);
      this.signed(parts);
      return;
    }
    const index = this.blocks.openReasoning(this.out, 'gemini');
    if (text.length > 0) this.out.push({ type: 'reasoning_delta', index, text });
    if (signature !== undefined) {
      this.out.push({ type: 'reasoning_state', index, signature });
      this.blocks.closeReasoning(this.out);
    }
  }

  /** Reasoning parts known whole (a signature on a text or call part): a block each. */
  private signed(parts: readonly ReasoningPart[]): void {
    this.blocks.closeOpen(this.out);
    for (const part of parts) {
      const index = this.blocks.take();
      this.out.push({ type: 'block_start', index, kind: 'reasoning', family: part.family });
      if (part.text.length > 0) this.out.push({ type: 'reasoning_delta', index, text: part.text });
      const state = stateEventOf(index, part);
      if (state !== null) this.out.push(state);
      this.out.push({ type: 'block_stop', index });
    }
  }

  private finishWith(reason: FinishReason): void {
    this.blocks.closeOpen(this.out);
    this.finished = true;
    this.out.push({ type: 'finish', reason });
  }

  private onError(e: JsonObject): void {
    const status = typeof e.status === 'string' ? e.status : String(e.code ?? 'error');
    const message = typeof e.message === 'string' ? e.message : 'no message';
    this.failure = new GatewayError('upstream_error', `gemini stream error (${status}): ${message}`);
  }
}
