// Responses SSE events -> model stream events.
// response.created starts; each output_text / refusal content part of a message item is a
// text block, each function_call item a tool block; response.completed / response.incomplete
// finish (with usage inside); response.failed and `error` raise an upstream error. A reasoning
// item is a reasoning block (its summary or reasoning_text deltas the text, its id and
// encrypted_content the state); hosted tool items are skipped. The text and arguments deltas most
// of a stream is made of are read without JSON.parse when they have a known shape
// (stream-fast-path.ts).
import { GatewayError } from '../../errors.js';
import { ReaderStreamDecoder } from '../framing/stream-decoder-base.js';
import { isJsonObject, type JsonObject } from '../framing/json-field.js';
import { SseReader, eventEndsAt } from '../framing/sse.js';
import { decodeFinishReason } from './finish-reason.js';
import { decodeUsage } from './usage.js';
import { ResponsesDeltaLayouts, ResponsesDeltaReader, integerEnd, TEXT_EVENT_HEAD, type DeltaRunSides } from './stream-fast-path.js';
import { measureTextRun } from '../fast-path/text-run.js';
import { DoneEvent, TextPartRun } from './done-events.js';
import { translateFastPath } from '../fast-path/switch.js';
import { holdsAt } from '../fast-path/json-scan.js';
import type { FastPathMemo } from '../fast-path/codec-fast-path.js';

const NONE = -1;
/** The lengths of the delta events' names, `response.output_text.delta` and `response.function_call_arguments.delta`. */
const TEXT_DELTA_NAME_LENGTH = 26;
const ARGS_DELTA_NAME_LENGTH = 38;

interface CallBlock {
  block: number;
  sawArgs: boolean;
}
/** A reasoning item's block; `summary`: the summary part its deltas last went to (they are joined by a blank line). */
interface ReasoningBlock {
  block: number;
  summary: number;
  sawText: boolean;
}

export class ResponsesStreamDecoder extends ReaderStreamDecoder {
  // Events are told apart by their data's `type`, as the full decoder does: the SSE name only
  // picks the learnt shape an event is parsed by.
  protected readonly reader = new SseReader(
    (event, data) => this.onData(event, data),
    translateFastPath ? (text, start, end, nameStart, nameEnd) => this.readInPlace(text, start, end, nameStart, nameEnd) : null,
    translateFastPath ? (text, at) => this.readLine(text, at) : null,
  );
  private started = false;
  private ended = false;
  private calledTool = false;
  private nextBlock = 0;
  private openBlock = NONE;
  /** `${output_index}:${content_index}` -> text block. */
  private readonly textBlocks = new Map<string, number>();
  /** The text block last looked up in textBlocks (NaN indexes: none). */
  private readonly lastPart = { outputIndex: NaN, contentIndex: NaN, block: NONE };
  /** output_index -> tool block. */
  private readonly callBlocks = new Map<number, CallBlock>();
  /** output_index -> reasoning block (made with the first: most streams have none). */
  private reasoningBlocks: Map<number, ReasoningBlock> | null = null;
  private readonly fast: ResponsesDeltaReader | null;
  /** True while the reader passes on an event the fast path refused in place: not tried again. */
  private refusedInPlace = false;
  /** response.created's data from `,"response":` on, when it had the plain head (see inProgressLikeCreated). */
  private createdTail: string | null = null;
  /** The text part the deltas last went to, for recognising its done events (done-events.ts). */
  private readonly textRun = translateFastPath ? new TextPartRun() : null;
  /** The encoder writes text runs (emitTextRuns): the stream's first plain text delta is then taken as their sides. */
  private runs = false;
  private runSides: DeltaRunSides | null = null;

  /** `memo`: the lane's, where the events it parses keep their shapes. */
  constructor(memo?: FastPathMemo) {
    super(memo);
    this.fast = translateFastPath ? new ResponsesDeltaReader(memo === undefined ? undefined : (memo.responsesDeltas ??= new ResponsesDeltaLayouts())) : null;
  }

  emitTextRuns(): void {
    this.runs = this.fast !== null;
  }

  protected complete(): void {
    if (!this.ended) throw new GatewayError('upstream_error', 'upstream stream ended before response.completed');
  }

  /**
   * The event at `text[at]`, its line ends not yet searched for: a delta a lane layout
   * matches, when a blank line follows it (its data's end, returned), is read here; anything
   * else is left to `readInPlace` (-1).
   */
  private readLine(text: string, at: number): number {
    const fast = this.fast!;
    if (!this.started || this.ended || this.failure !== null) return -1;
    const sides = this.runSides;
    if (sides !== null && this.reader.bytes !== null && text.startsWith(sides.headStart, at)) {
      // Text deltas back to back, read over the chunk's bytes (fast-path/text-run.ts).
      const bytes = this.reader.bytes;
      const runEnd = measureTextRun(bytes, at, sides.head, sides.tail, sides.slot);
      if (runEnd >= 0) {
        const index = this.textBlock(sides.outputIndex, sides.contentIndex);
        this.out.push({ type: 'text_run', index, bytes: bytes.subarray(at, runEnd), head: sides.head, tail: sides.tail, slot: sides.slot });
        this.textRun?.addRun(sides.outputIndex, sides.contentIndex);
        return runEnd - 2; // the last event's line end, as the split expects
      }
    }
    const end = fast.lineEnd(text, at);
    if (end < 0 || !eventEndsAt(text, end, true)) return -1;
    this.fastDelta(fast);
    if (this.runs && this.runSides === null) this.learnRunSides(fast, text, at + TEXT_EVENT_HEAD.length, end);
    return end;
  }

  /** A stream's run sides, from its first plain text delta read in place (tried once). */
  private learnRunSides(fast: ResponsesDeltaReader, text: string, start: number, end: number): void {
    if (!fast.text || fast.literal === undefined) return;
    this.runs = false;
    this.runSides = fast.runSides(text, start, end);
  }

  /**
   * A one-line event still in the upstream's text: the common deltas are read there. A named
   * event whose name is not as long as a delta event's name goes to the full decoder at once.
   * Most of a stream's other events are such, and the layouts and learnLayout would only
   * refuse them. The full decoder reads any event by its data's type, so what it gives is the
   * same whatever the name.
   */
  private readInPlace(text: string, start: number, end: number, nameStart: number, nameEnd: number): boolean {
    const fast = this.fast;
    if (!this.started || this.ended || this.failure !== null || fast === null) return false;
    const nameLength = nameEnd - nameStart;
    if ((nameStart >= 0 && nameLength !== TEXT_DELTA_NAME_LENGTH && nameLength !== ARGS_DELTA_NAME_LENGTH) || !fast.read(text, start, end)) {
      this.refusedInPlace = true; // the SSE reader hands it to onData next
      return false;
    }
    this.fastDelta(fast);
    if (this.runs && this.runSides === null) this.learnRunSides(fast, text, start, end);
    return true;
  }

  private onData(event: string | undefined, data: string): void {
    const tried = this.refusedInPlace;
    this.refusedInPlace = false;
    if (this.ended || this.failure !== null) return;
    const fast = this.fast;
    if (!tried && this.started && fast !== null && fast.read(data, 0, data.length)) {
      this.fastDelta(fast); // a delta read without parsing it (same events as below)
      return;
    }
    if (this.createdTail !== null && inProgressLikeCreated(data, this.createdTail)) return;
    const done = this.textRun !== null ? this.textRun.read(data) : DoneEvent.None;
    if (done !== DoneEvent.None) {
      this.textPartDone(done, this.textRun!);
      return;
    }
    const ev = this.parsedEvent(event ?? '', data);
    if (ev === undefined) return this.fail('upstream sent a stream event that is not JSON');
    if (!isJsonObject(ev)) return;
    const response = isJsonObject(ev.response) ? ev.response : undefined;
    if (!this.started) {
      this.started = true;
      this.out.push({ type: 'start', id: stringOr(response?.id), model: stringOr(response?.model) });
      if (fast !== null && ev.type === 'response.created') this.createdTail = tailAfterHead(data, CREATED_HEAD);
    }
    switch (ev.type) {
      case 'response.output_item.added':
        if (isJsonObject(ev.item) && ev.item.type === 'function_call') this.callBlock(numberOr(ev.output_index), ev.item);
        else if (isJsonObject(ev.item) && ev.item.type === 'reasoning') this.reasoningBlock(numberOr(ev.output_index), ev.item);
        return;
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        if (typeof ev.delta === 'string' && ev.delta !== '') {
          this.reasoningDelta(numberOr(ev.output_index), ev.type === 'response.reasoning_text.delta' ? 0 : numberOr(ev.summary_index), ev.delta);
        }
        return;
      case 'response.content_part.added':
        if (isJsonObject(ev.part) && (ev.part.type === 'output_text' || ev.part.type === 'refusal')) {
          this.textBlock(numberOr(ev.output_index), numberOr(ev.content_index));
        }
        return;
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        if (typeof ev.delta === 'string' && ev.delta !== '') this.textDelta(numberOr(ev.output_index), numberOr(ev.content_index), ev.delta);
        return;
      case 'response.content_part.done':
        this.partDone(numberOr(ev.output_index), numberOr(ev.content_index));
        return;
      case 'response.function_call_arguments.delta':
        if (typeof ev.delta === 'string' && ev.delta !== '') this.argsDelta(numberOr(ev.output_index), ev.delta);
        return;
      case 'response.function_call_arguments.done': {
        const call = this.callBlocks.get(numberOr(ev.output_index));
        if (call !== undefined) this.argsOnce(call, ev.arguments);
        return;
      }
      case 'response.output_item.done':
        this.itemDone(numberOr(ev.output_index), ev.item);
        return;
      case 'response.completed':
      case 'response.incomplete':
        this.completeResponse(response ?? {});
        return;
      case 'response.failed': {
        const err = response !== undefined && isJsonObject(response.error) ? response.error : undefined;
        this.failure = new GatewayError('upstream_error', typeof err?.message === 'string' ? err.message : 'upstream response failed');
        return;
      }
      case 'error': {
        const nested = isJsonObject(ev.error) ? ev.error : undefined;
        const message = typeof ev.message === 'string' ? ev.message : nested?.message;
        this.failure = new GatewayError('upstream_error', typeof message === 'string' ? message : 'upstream stream error');
        return;
      }
      default:
      // response.created, in_progress, output_text.done, reasoning and hosted tool events
    }
  }

  /** A done event of the text part `run`, recognised without parsing it: what the switch does with it. */
  private textPartDone(done: DoneEvent, run: TextPartRun): void {
    if (done === DoneEvent.PartDone) this.partDone(run.outputIndex, run.contentIndex);
    else if (done === DoneEvent.ItemDone) this.messageDone(run.outputIndex);
    // DoneEvent.TextDone: output_text.done carries nothing the decoder reads
  }

  private partDone(outputIndex: number, contentIndex: number): void {
    const block = this.textBlocks.get(`${outputIndex}:${contentIndex}`);
    if (block !== undefined) this.stop(block);
  }

  private fastDelta(fast: ResponsesDeltaReader): void {
    if (fast.text) this.textDelta(fast.outputIndex, fast.contentIndex, fast.value, fast.literal);
    else this.argsDelta(fast.outputIndex, fast.value, fast.literal);
  }

  /** `literal`: the text as its JSON literal, when the fast path read it without escapes. */
  private textDelta(outputIndex: number, contentIndex: number, text: string, literal?: string): void {
    const index = this.textBlock(outputIndex, contentIndex);
    this.out.push({ type: 'text_delta', index, text, literal });
    this.textRun?.add(outputIndex, contentIndex, text, literal);
  }

  private argsDelta(outputIndex: number, json: string, literal?: string): void {
    const call = this.callBlocks.get(outputIndex);
    if (call === undefined) return;
    call.sawArgs = true;
    this.out.push({ type: 'tool_args_delta', index: call.block, json, literal });
  }

  private textBlock(outputIndex: number, contentIndex: number): number {
    // A part's block never changes once set: the last one found is kept for its next deltas.
    if (outputIndex === this.lastPart.outputIndex && contentIndex === this.lastPart.contentIndex) return this.lastPart.block;
    const key = `${outputIndex}:${contentIndex}`;
    let block = this.textBlocks.get(key);
    if (block === undefined) {
      block = this.open();
      this.textBlocks.set(key, block);
      this.out.push({ type: 'block_start', index: block, kind: 'text' });
    }
    this.lastPart.outputIndex = outputIndex;
    this.lastPart.contentIndex = contentIndex;
    this.lastPart.block = block;
    return block;
  }

  private callBlock(outputIndex: number, item: JsonObject): CallBlock {
    let call = this.callBlocks.get(outputIndex);
    if (call === undefined) {
      call = { block: this.open(), sawArgs: false };
      this.callBlocks.set(outputIndex, call);
      this.calledTool = true;
      this.out.push({
        type: 'block_start',
        index: call.block,
        kind: 'tool_call',
        id: typeof item.call_id === 'string' ? item.call_id : `call_${outputIndex}`,
        name: stringOr(item.name),
      });
      this.argsOnce(call, item.arguments);
    }
    return call;
  }

  /** Arguments that came whole (in `added`, `done` or the item) count only when no delta carried them. */
  private argsOnce(call: CallBlock, args: unknown): void {
    if (call.sawArgs || typeof args !== 'string' || args === '') return;
    call.sawArgs = true;
    this.out.push({ type: 'tool_args_delta', index: call.block, json: args });
  }

  private itemDone(outputIndex: number, item: unknown): void {
    if (!isJsonObject(item)) return;
    if (item.type === 'function_call') {
      const call = this.callBlock(outputIndex, item);
      this.argsOnce(call, item.arguments);
      this.stop(call.block);
    } else if (item.type === 'message') {
      this.messageDone(outputIndex);
    } else if (item.type === 'reasoning') {
      const r = this.reasoningBlock(outputIndex, item);
      if (typeof item.encrypted_content === 'string') this.out.push({ type: 'reasoning_state', index: r.block, signature: item.encrypted_content });
      this.stop(r.block);
    }
  }

  private reasoningBlock(outputIndex: number, item: JsonObject): ReasoningBlock {
    let r = this.reasoningBlocks?.get(outputIndex);
    if (r === undefined) {
      r = { block: this.open(), summary: 0, sawText: false };
      (this.reasoningBlocks ??= new Map()).set(outputIndex, r);
      this.out.push({ type: 'block_start', index: r.block, kind: 'reasoning', family: 'responses' });
      if (typeof item.id === 'string') this.out.push({ type: 'reasoning_state', index: r.block, itemId: item.id });
    }
    return r;
  }

  private reasoningDelta(outputIndex: number, summary: number, text: string): void {
    const r = this.reasoningBlocks?.get(outputIndex);
    if (r === undefined) return;
    if (r.sawText && summary !== r.summary) this.out.push({ type: 'reasoning_delta', index: r.block, text: '\n\n' });
    r.summary = summary;
    r.sawText = true;
    this.out.push({ type: 'reasoning_delta', index: r.block, text });
  }

  private messageDone(outputIndex: number): void {
    for (const [key, block] of this.textBlocks) {
      if (key.startsWith(`${outputIndex}:`)) this.stop(block);
    }
  }

  /** Blocks run one at a time: opening one stops the one before. */
  private open(): number {
    if (this.openBlock !== NONE) this.stop(this.openBlock);
    this.openBlock = this.nextBlock++;
    return this.openBlock;
  }

  private stop(block: number): void {
    if (block !== this.openBlock) return;
    this.out.push({ type: 'block_stop', index: block });
    this.openBlock = NONE;
  }

  private completeResponse(response: JsonObject): void {
    if (this.openBlock !== NONE) this.stop(this.openBlock);
    this.out.push({
      type: 'finish',
      reason: decodeFinishReason(response.status, response.incomplete_details, this.calledTool),
    });
    const usage = decodeUsage(response.usage);
    if (usage !== null) this.out.push({ type: 'usage', usage });
    this.out.push({ type: 'end' });
    this.ended = true;
  }
}

// response.in_progress repeats response.created's response, byte for byte, in every stream: an
// in_progress event whose text after a plain head is the created event's (which JSON.parse
// read, and whose type stayed response.created) is valid JSON whose type the switch ignores,
// so it is passed over without parsing it again (about 1.5 µs a stream).
const CREATED_HEAD = '{"type":"response.created","sequence_number":';
const IN_PROGRESS_HEAD = '{"type":"response.in_progress","sequence_number":';
const RESPONSE_KEY = ',"response":';

/** `data` after `head`, an integer and RESPONSE_KEY (from RESPONSE_KEY on), or null. */
function tailAfterHead(data: string, head: string): string | null {
  if (!holdsAt(data, 0, head)) return null;
  const at = integerEnd(data, head.length);
  return at > 0 && holdsAt(data, at, RESPONSE_KEY) ? data.slice(at) : null;
}

/** Slices compared, not startsWith / endsWith: one memcmp each (json-scan.ts, holdsAt). */
function inProgressLikeCreated(data: string, createdTail: string): boolean {
  if (data.length <= IN_PROGRESS_HEAD.length + createdTail.length || !holdsAt(data, 0, IN_PROGRESS_HEAD)) return false;
  const at = integerEnd(data, IN_PROGRESS_HEAD.length);
  return at === data.length - createdTail.length && holdsAt(data, at, createdTail);
}

function stringOr(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function numberOr(v: unknown): number {
  return typeof v === 'number' ? v : 0;
}
