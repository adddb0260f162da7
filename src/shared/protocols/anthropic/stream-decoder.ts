// Anthropic SSE (message_start, content_block_*, message_delta, message_stop, ping, error) ->
// model stream events. Thinking blocks are reasoning blocks (their signature_delta the state);
// blocks outside the modeled subset (server tools) are skipped with their deltas, and the rest
// are renumbered from 0 as the model's contract wants.
import type { StreamEvent, Usage } from '../../model/types.js';
import { ReaderStreamDecoder } from '../framing/stream-decoder-base.js';
import { GatewayError } from '../../errors.js';
import { SseReader, eventEndsAt } from '../framing/sse.js';
import { isJsonObject, type JsonObject } from '../framing/json-field.js';
import { finishFromStopReason } from './finish-reason.js';
import { mergeAnthropicUsage } from './usage.js';
import { inputSide } from '../../model/usage.js';
import { EVENT_HEAD, matchBlockDeltaEvent, readBlockDelta, textRunSides, type BlockDelta } from './stream-fast-path.js';
import { measureTextRun } from '../fast-path/text-run.js';
import { translateFastPath } from '../fast-path/switch.js';
import { isJsonOutputTool } from '../json-output-tool.js';

const SKIPPED = -1;

export class AnthropicStreamDecoder extends ReaderStreamDecoder {
  protected readonly reader = new SseReader(
    (event, data) => this.onEvent(event, data),
    translateFastPath ? (text, start, end, nameStart, nameEnd) => this.readInPlace(text, start, end, nameStart, nameEnd) : null,
    translateFastPath ? (text, at) => this.readLine(text, at) : null,
  );
  /** Upstream block index -> model block index (SKIPPED for blocks outside the subset). */
  private readonly blockIndex: number[] = [];
  private readonly openBlocks = new Set<number>();
  /** Model blocks that are calls of the JSON-mode output tool (json-output-tool.ts): text to the caller. */
  private readonly jsonBlocks = new Set<number>();
  /** A call of a caller's tool came: a tool_use stop stays tool_calls. */
  private callerToolCalled = false;
  private nextIndex = 0;
  private readonly usage: Usage = { input: 0, output: 0, cacheRead: 0, cacheCreation: 0 };
  private started = false;
  private finished = false;
  private ended = false;
  /** The fast path's reused result (null when the fast paths are off). */
  private readonly fast: BlockDelta | null = translateFastPath ? { index: 0, text: true, value: '', literal: undefined } : null;
  /** The encoder writes text runs (emitTextRuns). */
  private runs = false;
  /** The upstream block of the delta last read when it was a plain text delta, else -1: where a run may follow. */
  private runBlock = -1;
  /** A run's sides for upstream block `runSidesBlock`. */
  private runSides: { head: Uint8Array; tail: Uint8Array } | null = null;
  private runSidesBlock = -1;

  emitTextRuns(): void {
    this.runs = this.fast !== null;
  }

  protected complete(): void {
    if (!this.ended) throw new GatewayError('upstream_error', 'anthropic stream ended before message_stop');
  }

  /**
   * The event at `text[at]`, its line ends not yet searched for: the common delta, when a
   * blank line follows it (its data's end, returned), is read here; anything else is left to
   * `readInPlace` (-1).
   */
  private readLine(text: string, at: number): number {
    const fast = this.fast!;
    if (this.failure !== null || this.ended) return -1;
    if (this.runBlock >= 0 && this.reader.bytes !== null && text.startsWith(EVENT_HEAD, at)) {
      const runEnd = this.run(this.reader.bytes, at);
      if (runEnd >= 0) return runEnd - 2; // the last event's line end, as the split expects
    }
    const end = matchBlockDeltaEvent(text, at, fast);
    if (end < 0 || !eventEndsAt(text, end, true)) return -1;
    this.delta(fast);
    return end;
  }

  /** An event still in the upstream's text: the common delta is read there (not a ping: those are dropped). */
  private readInPlace(text: string, start: number, end: number, nameStart: number, nameEnd: number): boolean {
    const fast = this.fast;
    if (fast === null || this.failure !== null || this.ended || (nameEnd - nameStart === 4 && text.startsWith('ping', nameStart))) return false;
    if (!readBlockDelta(text, start, end, fast)) return false;
    this.delta(fast);
    return true;
  }

  private onEvent(event: string | undefined, data: string): void {
    if (event === 'ping' || this.failure !== null || this.ended) return;
    const fast = this.fast;
    if (fast !== null && readBlockDelta(data, 0, data.length, fast)) {
      this.delta(fast);
      return;
    }
    const msg = this.parsedEvent(event ?? '', data);
    if (msg === undefined) return this.fail(`anthropic stream: malformed JSON in ${event ?? 'an'} event`);
    if (!isJsonObject(msg)) return;
    switch (msg.type) {
      case 'message_start':
        return this.onMessageStart(msg);
      case 'content_block_start':
        return this.onBlockStart(msg);
      case 'content_block_delta':
        return this.onBlockDelta(msg);
      case 'content_block_stop':
        return this.onBlockStop(msg);
      case 'message_delta':
        return this.onMessageDelta(msg);
      case 'message_stop':
        return this.onMessageStop();
      case 'error':
        return this.onError(msg);
      default:
        return; // ping and future event types
    }
  }

  /**
   * Text deltas of block `runBlock` back to back at `bytes[at]`, read over the bytes
   * (fast-path/text-run.ts): where they end, or -1 when fewer than two are there.
   */
  private run(bytes: Uint8Array, at: number): number {
    const index = this.blockIndex[this.runBlock] ?? SKIPPED;
    if (index === SKIPPED) return -1;
    if (this.runSidesBlock !== this.runBlock) {
      this.runSides = textRunSides(this.runBlock);
      this.runSidesBlock = this.runBlock;
    }
    const { head, tail } = this.runSides!;
    const end = measureTextRun(bytes, at, head, tail);
    if (end >= 0) this.out.push({ type: 'text_run', index, bytes: bytes.subarray(at, end), head, tail, slot: 0 });
    return end;
  }

  /** The common delta, read without parsing it (same events as onBlockDelta). */
  private delta(fast: BlockDelta): void {
    if (this.runs) this.runBlock = fast.text && fast.literal !== undefined ? fast.index : -1;
    const index = this.blockIndex[fast.index] ?? SKIPPED;
    if (index === SKIPPED) return;
    this.out.push(
      fast.text || this.jsonBlocks.has(index)
        ? { type: 'text_delta', index, text: fast.value, literal: fast.literal }
        : { type: 'tool_args_delta', index, json: fast.value, literal: fast.literal },
    );
  }

  private onMessageStart(msg: JsonObject): void {
    const m = isJsonObject(msg.message) ? msg.message : {};
    mergeAnthropicUsage(this.usage, m.usage);
    this.started = true;
    const start: StreamEvent = { type: 'start', id: typeof m.id === 'string' ? m.id : '', model: typeof m.model === 'string' ? m.model : '' };
    // The input side is known from here on: callers whose stream opens with it get it at once.
    if (this.usage.input + this.usage.cacheRead + this.usage.cacheCreation > 0) start.usage = inputSide(this.usage);
    this.out.push(start);
  }

  private ensureStarted(): void {
    if (!this.started) {
      this.started = true;
      this.out.push({ type: 'start', id: '', model: '' });
    }
  }

  private onBlockStart(msg: JsonObject): void {
    this.ensureStarted();
    const upstream = typeof msg.index === 'number' ? msg.index : this.blockIndex.length;
    const block = isJsonObject(msg.content_block) ? msg.content_block : {};
    if (block.type === 'text') {
      const index = this.openBlock(upstream);
      this.out.push({ type: 'block_start', index, kind: 'text' });
      if (typeof block.text === 'string' && block.text.length > 0) this.out.push({ type: 'text_delta', index, text: block.text });
    } else if (block.type === 'tool_use' && typeof block.name === 'string' && isJsonOutputTool(block.name)) {
      // A JSON-mode answer: the tool's input streams as the answer's text.
      const index = this.openBlock(upstream);
      this.jsonBlocks.add(index);
      this.out.push({ type: 'block_start', index, kind: 'text' });
      if (isJsonObject(block.input) && Object.keys(block.input).length > 0) this.out.push({ type: 'text_delta', index, text: JSON.stringify(block.input) });
    } else if (block.type === 'tool_use') {
      this.callerToolCalled = true;
      const index = this.openBlock(upstream);
      const id = typeof block.id === 'string' ? block.id : '';
      const name = typeof block.name === 'string' ? block.name : '';
      this.out.push({ type: 'block_start', index, kind: 'tool_call', id, name });
      // The input normally streams as input_json_delta; an already filled one is sent whole.
      if (isJsonObject(block.input) && Object.keys(block.input).length > 0) {
        this.out.push({ type: 'tool_args_delta', index, json: JSON.stringify(block.input) });
      }
    } else if (block.type === 'thinking' || block.type === 'redacted_thinking') {
      const index = this.openBlock(upstream);
      this.out.push({ type: 'block_start', index, kind: 'reasoning', family: 'anthropic' });
      if (typeof block.thinking === 'string' && block.thinking.length > 0) this.out.push({ type: 'reasoning_delta', index, text: block.thinking });
      if (typeof block.signature === 'string' && block.signature.length > 0) this.out.push({ type: 'reasoning_state', index, signature: block.signature });
      if (typeof block.data === 'string') this.out.push({ type: 'reasoning_state', index, redacted: block.data });
    } else {
      this.blockIndex[upstream] = SKIPPED;
    }
  }

  private openBlock(upstream: number): number {
    const index = this.nextIndex++;
    this.blockIndex[upstream] = index;
    this.openBlocks.add(index);
    return index;
  }

  private mapped(msg: JsonObject): number {
    const i = typeof msg.index === 'number' ? this.blockIndex[msg.index] : undefined;
    return i === undefined ? SKIPPED : i;
  }

  private onBlockDelta(msg: JsonObject): void {
    const index = this.mapped(msg);
    if (index === SKIPPED || !isJsonObject(msg.delta)) return;
    const d = msg.delta;
    if (d.type === 'text_delta' && typeof d.text === 'string' && d.text.length > 0) {
      this.out.push({ type: 'text_delta', index, text: d.text });
    } else if (d.type === 'input_json_delta' && typeof d.partial_json === 'string' && d.partial_json.length > 0) {
      this.out.push(
        this.jsonBlocks.has(index) ? { type: 'text_delta', index, text: d.partial_json } : { type: 'tool_args_delta', index, json: d.partial_json },
      );
    } else if (d.type === 'thinking_delta' && typeof d.thinking === 'string' && d.thinking.length > 0) {
      this.out.push({ type: 'reasoning_delta', index, text: d.thinking });
    } else if (d.type === 'signature_delta' && typeof d.signature === 'string') {
      this.out.push({ type: 'reasoning_state', index, signature: d.signature });
    }
  }

  private onBlockStop(msg: JsonObject): void {
    const index = this.mapped(msg);
    if (index !== SKIPPED && this.openBlocks.delete(index)) this.out.push({ type: 'block_stop', index });
  }

  private onMessageDelta(msg: JsonObject): void {
    this.ensureStarted();
    mergeAnthropicUsage(this.usage, msg.usage);
    if (!this.finished) {
      this.closeOpenBlocks();
      this.finished = true;
      const delta = isJsonObject(msg.delta) ? msg.delta : {};
      const reason = finishFromStopReason(delta.stop_reason);
      // A JSON-mode answer ends in tool_use upstream; to the caller it is an ordinary stop.
      this.out.push({ type: 'finish', reason: reason === 'tool_calls' && this.jsonBlocks.size > 0 && !this.callerToolCalled ? 'stop' : reason });
    }
    this.out.push({ type: 'usage', usage: { ...this.usage } });
  }

  private onMessageStop(): void {
    this.ensureStarted();
    if (!this.finished) {
      // No message_delta came: nothing says why it stopped, so it ended on its own.
      this.closeOpenBlocks();
      this.finished = true;
      this.out.push({ type: 'finish', reason: 'stop' }, { type: 'usage', usage: { ...this.usage } });
    }
    this.ended = true;
    this.out.push({ type: 'end' });
  }

  private closeOpenBlocks(): void {
    for (const index of this.openBlocks) this.out.push({ type: 'block_stop', index });
    this.openBlocks.clear();
  }

  private onError(msg: JsonObject): void {
    const e = isJsonObject(msg.error) ? msg.error : {};
    const type = typeof e.type === 'string' ? e.type : 'error';
    const message = typeof e.message === 'string' ? e.message : 'no message';
    this.failure = new GatewayError('upstream_error', `anthropic stream error (${type}): ${message}`);
  }
}
