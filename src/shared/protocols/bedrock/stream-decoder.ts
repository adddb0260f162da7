// Bedrock converse-stream event frames -> model stream events. Text and reasoning blocks have
// no contentBlockStart (the first delta opens them: reasoningContent text, signature or
// redactedContent); tool blocks do. Other blocks (citations...) are skipped and the rest
// renumbered from 0. Exception frames end the stream with an error.
import type { Usage } from '../../model/types.js';
import { ReaderStreamDecoder } from '../framing/stream-decoder-base.js';
import { GatewayError } from '../../errors.js';
import { isJsonObject, type JsonObject } from '../framing/json-field.js';
import { translateFastPath } from '../fast-path/switch.js';
import { EventStreamReader, headerString, payloadText, type EventFrame } from './event-stream.js';
import { finishFromStopReason } from './finish-reason.js';
import { SYNTHESIZED_RESPONSE_ID } from './response.js';
import { DELTA_HEADER_BLOCK, readBlockDelta, type BlockDelta } from './stream-fast-path.js';
import { usageFromBedrock } from './usage.js';
import { isJsonOutputTool } from '../json-output-tool.js';

const SKIPPED = -1;

export class BedrockStreamDecoder extends ReaderStreamDecoder {
  protected readonly reader = new EventStreamReader(
    (f) => this.onFrame(f),
    translateFastPath ? (text, headersLength, headersKnown) => this.readInPlace(text, headersLength, headersKnown) : null,
    translateFastPath ? DELTA_HEADER_BLOCK : null,
  );
  /** Upstream contentBlockIndex -> model block index (SKIPPED for blocks outside the subset). */
  private readonly blockIndex: number[] = [];
  private readonly openBlocks = new Set<number>();
  /** Model blocks that are calls of the JSON-mode output tool (json-output-tool.ts): text to the caller. */
  private readonly jsonBlocks = new Set<number>();
  /** A call of a caller's tool came: a tool_use stop stays tool_calls. */
  private callerToolCalled = false;
  private nextIndex = 0;
  /** Upstream indexes of reasoning blocks: a text or tool delta there is not theirs (empty for most streams). */
  private reasoningUpstream: Set<number> | null = null;
  private started = false;
  private finished = false;
  /** A metadata event that came before messageStop, held to keep the contract's order. */
  private earlyUsage: Usage | null = null;
  /** The fast path's reused result (null when the fast paths are off). */
  private readonly fast: BlockDelta | null = translateFastPath ? { index: 0, text: true, value: '', literal: undefined } : null;

  protected complete(): void {
    if (!this.finished) throw new GatewayError('upstream_error', 'bedrock stream ended before messageStop');
    this.out.push({ type: 'end' });
  }

  /** A frame still in its text: the common delta is read there (same events as onBlockDelta). */
  private readInPlace(text: string, headersLength: number, headersKnown: boolean): boolean {
    const fast = this.fast;
    if (this.failure !== null || fast === null || !readBlockDelta(text, headersLength, fast, headersKnown)) return false;
    this.ensureStarted();
    if (fast.text) this.textDelta(fast.index, fast.value, fast.literal);
    else this.toolInputDelta(fast.index, fast.value, fast.literal);
    return true;
  }

  private onFrame(f: EventFrame): void {
    if (this.failure !== null) return;
    const messageType = headerString(f, ':message-type');
    if (messageType === 'exception') return this.onException(headerString(f, ':exception-type'), payloadText(f));
    if (messageType === 'error') {
      this.failure = new GatewayError('upstream_error', `bedrock stream error (${headerString(f, ':error-code')}): ${headerString(f, ':error-message')}`);
      return;
    }
    const eventType = headerString(f, ':event-type');
    const payload = this.parsedEvent(eventType, payloadText(f));
    if (payload === undefined) return this.fail(`bedrock stream: malformed JSON in a ${eventType} event`);
    if (!isJsonObject(payload)) return;
    switch (eventType) {
      case 'messageStart':
        return this.ensureStarted();
      case 'contentBlockStart':
        return this.onBlockStart(payload);
      case 'contentBlockDelta':
        return this.onBlockDelta(payload);
      case 'contentBlockStop':
        return this.onBlockStop(payload);
      case 'messageStop':
        return this.onMessageStop(payload);
      case 'metadata':
        return this.onMetadata(payload);
      default:
        return; // future event types
    }
  }

  private ensureStarted(): void {
    if (!this.started) {
      this.started = true;
      this.out.push({ type: 'start', id: SYNTHESIZED_RESPONSE_ID, model: '' });
    }
  }

  private openBlock(upstream: number): number {
    const index = this.nextIndex++;
    this.blockIndex[upstream] = index;
    this.openBlocks.add(index);
    return index;
  }

  private onBlockStart(p: JsonObject): void {
    this.ensureStarted();
    const upstream = typeof p.contentBlockIndex === 'number' ? p.contentBlockIndex : this.blockIndex.length;
    const start = isJsonObject(p.start) ? p.start : {};
    if (isJsonObject(start.toolUse) && typeof start.toolUse.name === 'string' && isJsonOutputTool(start.toolUse.name)) {
      // A JSON-mode answer: the tool's input streams as the answer's text.
      const index = this.openBlock(upstream);
      this.jsonBlocks.add(index);
      this.out.push({ type: 'block_start', index, kind: 'text' });
    } else if (isJsonObject(start.toolUse)) {
      this.callerToolCalled = true;
      const t = start.toolUse;
      const index = this.openBlock(upstream);
      this.out.push({
        type: 'block_start',
        index,
        kind: 'tool_call',
        id: typeof t.toolUseId === 'string' ? t.toolUseId : '',
        name: typeof t.name === 'string' ? t.name : '',
      });
    }
    // Any other start (image, tool result...) is left unmapped: its first delta says whether
    // it is text or something the model does not carry.
  }

  private onBlockDelta(p: JsonObject): void {
    this.ensureStarted();
    if (typeof p.contentBlockIndex !== 'number' || !isJsonObject(p.delta)) return;
    const d = p.delta;
    if (typeof d.text === 'string') {
      this.textDelta(p.contentBlockIndex, d.text, undefined);
    } else if (isJsonObject(d.toolUse)) {
      if (typeof d.toolUse.input === 'string') this.toolInputDelta(p.contentBlockIndex, d.toolUse.input, undefined);
    } else if (isJsonObject(d.reasoningContent)) {
      this.reasoningDelta(p.contentBlockIndex, d.reasoningContent);
    } else if (this.blockIndex[p.contentBlockIndex] === undefined) {
      this.blockIndex[p.contentBlockIndex] = SKIPPED; // citations: not modeled
    }
  }

  private reasoningDelta(upstream: number, r: JsonObject): void {
    let index = this.blockIndex[upstream];
    if (index === undefined) {
      index = this.openBlock(upstream);
      (this.reasoningUpstream ??= new Set()).add(upstream);
      this.out.push({ type: 'block_start', index, kind: 'reasoning', family: 'bedrock' });
    }
    if (index === SKIPPED || this.reasoningUpstream === null || !this.reasoningUpstream.has(upstream)) return;
    if (typeof r.text === 'string' && r.text.length > 0) this.out.push({ type: 'reasoning_delta', index, text: r.text });
    else if (typeof r.signature === 'string') this.out.push({ type: 'reasoning_state', index, signature: r.signature });
    else if (typeof r.redactedContent === 'string') this.out.push({ type: 'reasoning_state', index, redacted: r.redactedContent });
  }

  /** `literal`: the text as its JSON literal, when the fast path read it without escapes. */
  private textDelta(upstream: number, text: string, literal: string | undefined): void {
    if (this.reasoningUpstream !== null && this.reasoningUpstream.has(upstream)) return;
    let index = this.blockIndex[upstream];
    if (index === undefined) {
      // Converse opens a text block with its first delta.
      index = this.openBlock(upstream);
      this.out.push({ type: 'block_start', index, kind: 'text' });
    }
    if (index !== SKIPPED && text.length > 0) this.out.push({ type: 'text_delta', index, text, literal });
  }

  private toolInputDelta(upstream: number, json: string, literal: string | undefined): void {
    if (this.reasoningUpstream !== null && this.reasoningUpstream.has(upstream)) return;
    const index = this.blockIndex[upstream];
    if (index === undefined || index === SKIPPED || json.length === 0) return;
    this.out.push(this.jsonBlocks.has(index) ? { type: 'text_delta', index, text: json, literal } : { type: 'tool_args_delta', index, json, literal });
  }

  private onBlockStop(p: JsonObject): void {
    const index = typeof p.contentBlockIndex === 'number' ? this.blockIndex[p.contentBlockIndex] : undefined;
    if (index !== undefined && index !== SKIPPED && this.openBlocks.delete(index)) this.out.push({ type: 'block_stop', index });
  }

  private onMessageStop(p: JsonObject): void {
    this.ensureStarted();
    if (this.finished) return;
    for (const index of this.openBlocks) this.out.push({ type: 'block_stop', index });
    this.openBlocks.clear();
    this.finished = true;
    const reason = finishFromStopReason(p.stopReason);
    // A JSON-mode answer ends in tool_use upstream; to the caller it is an ordinary stop.
    this.out.push({ type: 'finish', reason: reason === 'tool_calls' && this.jsonBlocks.size > 0 && !this.callerToolCalled ? 'stop' : reason });
    if (this.earlyUsage !== null) this.out.push({ type: 'usage', usage: this.earlyUsage });
  }

  private onMetadata(p: JsonObject): void {
    if (!isJsonObject(p.usage)) return;
    const usage = usageFromBedrock(p.usage);
    if (this.finished) this.out.push({ type: 'usage', usage });
    else this.earlyUsage = usage;
  }

  private onException(type: string, payload: string): void {
    let message = payload;
    try {
      const parsed: unknown = JSON.parse(message);
      if (isJsonObject(parsed) && typeof parsed.message === 'string') message = parsed.message;
    } catch {
      // not JSON: the raw text is the message
    }
    this.failure = new GatewayError('upstream_error', `bedrock stream exception (${type || 'unknown'}): ${message}`);
  }
}
