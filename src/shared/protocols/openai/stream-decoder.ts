// Chat Completions SSE chunks -> model stream events.
// Upstream order: a role chunk, content deltas, tool_calls deltas (index/id/name/arguments),
// a finish_reason chunk, an optional usage chunk (choices: []), then `data: [DONE]`. Blocks
// are opened as their first delta arrives and closed when another block starts or at finish.
import { GatewayError } from '../../errors.js';
import type { Usage } from '../../model/types.js';
import { FramedStreamDecoder } from '../framing/stream-decoder-base.js';
import { isJsonObject, type JsonObject } from '../framing/json-field.js';
import { SseReader, dataStart, eventEndsAt } from '../framing/sse.js';
import { decodeFinishReason } from './finish-reason.js';
import { openAiUpstreamErrorMessage } from './errors.js';
import { decodeUsage } from './usage.js';
import { ChatTextDeltaReader } from './stream-fast-path.js';
import { translateFastPath } from '../fast-path/switch.js';
import type { FastPathMemo } from '../fast-path/codec-fast-path.js';
import { JsonShapes } from '../framing/shaped-parse.js';

const NONE = -1;
/** The kind a stream's first chunk is kept under in the lane's JsonShapes. */
const FIRST_CHUNK = 'first chunk';
/** The usage value of a stream's usage-only chunk, kept under this kind (every stream's is alike but for its counts). */
const USAGE_ONLY = 'usage only';

export class ChatStreamDecoder extends FramedStreamDecoder {
  private readonly reader = new SseReader(
    (_event, data) => this.onData(data),
    translateFastPath ? (text, start, end) => this.readInPlace(text, start, end) : null,
    translateFastPath ? (text, at) => this.readLine(text, at) : null,
  );
  private started = false;
  private finished = false;
  private ended = false;
  private nextBlock = 0;
  private openBlock = NONE;
  private textBlock = NONE;
  /** The open reasoning block (`reasoning_content` deltas), or NONE. */
  private reasoningBlock = NONE;
  /** Upstream tool_calls[].index -> block index. */
  private readonly toolBlocks = new Map<number, number>();
  /** Usage that arrived before finish (some hosts report it on every chunk); emitted after finish. */
  private pendingUsage: Usage | null = null;
  private readonly fast: ChatTextDeltaReader | null;
  /** The encoder writes text runs (emitTextRuns). */
  private runs = false;
  /** The lane's learnt event shapes (shaped-parse.ts), for a stream's first chunk; null when the fast paths are off. */
  private readonly shapes: JsonShapes | null;

  /** `memo`: the lane's, where its text-delta layout and its first chunk's shape are kept. */
  constructor(memo?: FastPathMemo) {
    super();
    this.fast = translateFastPath ? new ChatTextDeltaReader(memo === undefined ? null : (memo.chatDeltas ??= { text: null })) : null;
    this.shapes = translateFastPath && memo !== undefined ? (memo.eventShapes ??= new JsonShapes()) : null;
  }

  emitTextRuns(): void {
    this.runs = this.fast !== null;
  }

  protected feed(chunk: Uint8Array): void {
    this.reader.push(chunk);
  }

  protected flush(): void {
    this.reader.end();
  }

  protected complete(): void {
    if (!this.ended) {
      // No [DONE]: complete only a stream that got as far as its finish_reason.
      if (!this.finished) throw new GatewayError('upstream_error', 'upstream stream ended before finish_reason');
      this.close();
    }
  }

  /**
   * The event at `text[at]`, its line ends not yet searched for: a text delta the lane's
   * layout matches, when a blank line follows the match (its end, returned), is read here;
   * anything else is left to `readInPlace` (-1).
   */
  private readLine(text: string, at: number): number {
    const fast = this.fast!;
    if (!this.started || this.ended || this.failure !== null) return -1;
    if (this.runs && this.textBlock !== NONE && this.openBlock === this.textBlock) {
      // Deltas of the open text block back to back, read over the chunk's bytes (fast-path/text-run.ts).
      const bytes = this.reader.bytes;
      const runEnd = bytes === null ? -1 : fast.textRun(bytes, at);
      if (runEnd >= 0) {
        this.out.push({ type: 'text_run', index: this.textBlock, bytes: bytes!.subarray(at, runEnd), head: fast.runHead!, tail: fast.runTailBytes!, slot: 0 });
        return runEnd - 2; // the last event's line end, as the split expects
      }
    }
    const start = dataStart(text, at);
    if (start < 0) return -1;
    const end = fast.lineEnd(text, start);
    if (end < 0 || !eventEndsAt(text, end, false) || !fast.readMatched(text, start, end)) return -1;
    this.text(fast.text, fast.literal);
    return end;
  }

  /**
   * A one-line event still in the upstream's text: the common text delta, the finishing chunk
   * and the usage-only chunk are read there (the same events as onData gives for them).
   */
  private readInPlace(text: string, start: number, end: number): boolean {
    const fast = this.fast;
    if (!this.started || this.ended || this.failure !== null || fast === null) return false;
    if (fast.read(text, start, end)) {
      this.text(fast.text, fast.literal);
      return true;
    }
    const reason = fast.readFinish(text, start, end);
    if (reason !== null) {
      if (!this.finished) this.finishWith(reason);
      return true;
    }
    const usageText = fast.readUsageOnly(text, start, end);
    if (usageText === null) return false;
    let usage: Usage | null;
    try {
      usage = decodeUsage(this.shapes !== null ? this.shapes.parse(USAGE_ONLY, usageText) : JSON.parse(usageText));
    } catch {
      return false; // the full decoder reports the chunk
    }
    if (usage !== null) {
      if (this.finished) this.out.push({ type: 'usage', usage });
      else this.pendingUsage = usage;
    }
    return true;
  }

  private onData(data: string): void {
    if (this.ended || this.failure !== null) return;
    if (data === '[DONE]') {
      this.close();
      return;
    }
    const fast = this.fast;
    if (this.started && fast !== null && fast.read(data, 0, data.length)) {
      // The common text-delta chunk, read without parsing it (same events as below).
      this.text(fast.text, fast.literal);
      return;
    }
    let obj: unknown;
    try {
      // A stream's first chunk (the role chunk) is the lane's previous first chunk but for its
      // id and created: parsed by its shape. Later chunks here are of many kinds: parsed.
      obj = !this.started && this.shapes !== null ? this.shapes.parse(FIRST_CHUNK, data) : JSON.parse(data);
    } catch {
      this.failure = new GatewayError('upstream_error', 'upstream sent a stream chunk that is not JSON');
      return;
    }
    if (!isJsonObject(obj)) return;
    if (obj.error !== undefined && obj.error !== null) {
      this.failure = new GatewayError('upstream_error', openAiUpstreamErrorMessage(200, obj));
      return;
    }
    if (!this.started) {
      this.started = true;
      this.out.push({ type: 'start', id: stringOr(obj.id), model: stringOr(obj.model) });
    }
    // Usage in the same chunk as finish_reason belongs after finish: noted first, emitted by finish.
    const usage = decodeUsage(obj.usage);
    const finishedBefore = this.finished;
    if (usage !== null && !finishedBefore) this.pendingUsage = usage;
    if (Array.isArray(obj.choices)) {
      for (const choice of obj.choices) {
        // Only the first choice is modeled.
        if (isJsonObject(choice) && (choice.index === 0 || choice.index === undefined)) this.onChoice(choice);
      }
    }
    if (usage !== null && finishedBefore) this.out.push({ type: 'usage', usage });
  }

  private onChoice(choice: JsonObject): void {
    const delta = choice.delta;
    if (isJsonObject(delta)) {
      // DeepSeek and vLLM's reasoning_content (`reasoning` on some hosts) comes before the content.
      const reasoning = typeof delta.reasoning_content === 'string' ? delta.reasoning_content : delta.reasoning;
      if (typeof reasoning === 'string' && reasoning !== '') this.reasoning(reasoning);
      if (typeof delta.content === 'string' && delta.content !== '') this.text(delta.content);
      if (typeof delta.refusal === 'string' && delta.refusal !== '') this.text(delta.refusal);
      if (Array.isArray(delta.tool_calls)) {
        delta.tool_calls.forEach((tc, i) => {
          if (isJsonObject(tc)) this.toolCall(tc, i);
        });
      }
    }
    if (typeof choice.finish_reason === 'string' && !this.finished) this.finishWith(choice.finish_reason);
  }

  /** The first finish_reason: the open block closes, then finish and any usage held for it. */
  private finishWith(reason: string): void {
    this.closeOpenBlock();
    this.finished = true;
    this.out.push({ type: 'finish', reason: decodeFinishReason(reason) });
    if (this.pendingUsage !== null) {
      this.out.push({ type: 'usage', usage: this.pendingUsage });
      this.pendingUsage = null;
    }
  }

  /** `literal`: the text as its JSON literal, when the fast path read it without escapes. */
  private text(text: string, literal?: string): void {
    if (this.textBlock === NONE || this.openBlock !== this.textBlock) {
      this.closeOpenBlock();
      this.textBlock = this.openBlock = this.nextBlock++;
      this.out.push({ type: 'block_start', index: this.textBlock, kind: 'text' });
    }
    this.out.push({ type: 'text_delta', index: this.textBlock, text, literal });
  }

  private reasoning(text: string): void {
    if (this.reasoningBlock === NONE || this.openBlock !== this.reasoningBlock) {
      this.closeOpenBlock();
      this.reasoningBlock = this.openBlock = this.nextBlock++;
      this.out.push({ type: 'block_start', index: this.reasoningBlock, kind: 'reasoning', family: 'openai' });
    }
    this.out.push({ type: 'reasoning_delta', index: this.reasoningBlock, text });
  }

  private toolCall(tc: JsonObject, position: number): void {
    const toolIndex = typeof tc.index === 'number' ? tc.index : position;
    const fn = isJsonObject(tc.function) ? tc.function : undefined;
    let block = this.toolBlocks.get(toolIndex);
    if (block === undefined) {
      this.closeOpenBlock();
      block = this.openBlock = this.nextBlock++;
      this.toolBlocks.set(toolIndex, block);
      this.out.push({
        type: 'block_start',
        index: block,
        kind: 'tool_call',
        id: typeof tc.id === 'string' && tc.id !== '' ? tc.id : `call_${toolIndex}`,
        name: typeof fn?.name === 'string' ? fn.name : '',
      });
    }
    if (typeof fn?.arguments === 'string' && fn.arguments !== '') {
      this.out.push({ type: 'tool_args_delta', index: block, json: fn.arguments });
    }
  }

  private closeOpenBlock(): void {
    if (this.openBlock === NONE) return;
    this.out.push({ type: 'block_stop', index: this.openBlock });
    this.openBlock = NONE;
  }

  /** `[DONE]` (or the end of the bytes after finish_reason): whatever the upstream left out is completed here. */
  private close(): void {
    if (this.ended) return;
    if (!this.started) {
      this.failure = new GatewayError('upstream_error', 'upstream stream ended before its first chunk');
      return;
    }
    this.closeOpenBlock();
    if (!this.finished) {
      this.finished = true;
      this.out.push({ type: 'finish', reason: 'stop' });
    }
    if (this.pendingUsage !== null) {
      this.out.push({ type: 'usage', usage: this.pendingUsage });
      this.pendingUsage = null;
    }
    this.ended = true;
    this.out.push({ type: 'end' });
  }
}

function stringOr(v: unknown): string {
  return typeof v === 'string' ? v : '';
}
