// Ollama NDJSON lines -> model stream events. Each line carries message.content (text) and/or
// message.tool_calls (each call whole, arguments as an object); the last line has done: true
// with done_reason and the counts. A line {"error": ...} raises an upstream error.
import { GatewayError } from '../../errors.js';
import { ReaderStreamDecoder } from '../framing/stream-decoder-base.js';
import { SequentialBlocks } from '../framing/sequential-blocks.js';
import { isJsonObject, type JsonObject } from '../framing/json-field.js';
import { NdjsonReader, lineEndsAt } from '../framing/ndjson.js';
import { decodeFinishReason } from './finish-reason.js';
import { decodeToolCalls, responseId } from './response.js';
import { decodeUsage } from './usage.js';
import { OllamaTextLineReader } from './stream-fast-path.js';
import { translateFastPath } from '../fast-path/switch.js';

/** The kinds a stream's lines are kept under in the lane's JsonShapes. */
const FIRST_LINE = 'first line';
const LINE = 'line';

export class OllamaStreamDecoder extends ReaderStreamDecoder {
  protected readonly reader = new NdjsonReader(
    (line) => this.onLine(line),
    translateFastPath ? (text, start, end) => this.readInPlace(text, start, end) : null,
    translateFastPath ? (text, start) => this.readLine(text, start) : null,
  );
  private started = false;
  private ended = false;
  /** The open reasoning block holds the `thinking` deltas. */
  private readonly blocks = new SequentialBlocks();
  private toolCalls = 0;
  private readonly fast = translateFastPath ? new OllamaTextLineReader() : null;

  protected complete(): void {
    if (!this.ended) throw new GatewayError('upstream_error', 'upstream stream ended before its done line');
  }

  /** A line at `text[start]`, its end not yet searched for: the common text line is read there (its end returned), else -1. */
  private readLine(text: string, start: number): number {
    const fast = this.fast!;
    if (!this.started || this.ended || this.failure !== null) return -1;
    const end = fast.lineEnd(text, start);
    if (end < 0 || !lineEndsAt(text, end)) return -1;
    this.blocks.textDelta(this.out, fast.text, fast.literal);
    return end;
  }

  /** A line still in the upstream's text: the common text line is read there (same events as onLine). */
  private readInPlace(text: string, start: number, end: number): boolean {
    const fast = this.fast;
    if (!this.started || this.ended || this.failure !== null || fast === null || !fast.read(text, start, end)) return false;
    this.blocks.textDelta(this.out, fast.text, fast.literal);
    return true;
  }

  private onLine(line: string): void {
    if (this.ended || this.failure !== null) return;
    // The first line and the done line repeat the lane's earlier ones but for their values:
    // parsed by their shapes (the value is read here at once, as the shapes want).
    const obj = this.parsedEvent(this.started ? LINE : FIRST_LINE, line);
    if (obj === undefined) return this.fail('upstream sent a stream line that is not JSON');
    if (!isJsonObject(obj)) return;
    if (typeof obj.error === 'string') {
      this.failure = new GatewayError('upstream_error', obj.error);
      return;
    }
    if (!this.started) {
      this.started = true;
      this.out.push({ type: 'start', id: responseId(obj.created_at), model: typeof obj.model === 'string' ? obj.model : '' });
    }
    const msg = isJsonObject(obj.message) ? obj.message : undefined;
    if (msg !== undefined) {
      if (typeof msg.thinking === 'string' && msg.thinking !== '') this.thinking(msg.thinking);
      if (typeof msg.content === 'string' && msg.content !== '') this.blocks.textDelta(this.out, msg.content);
      for (const call of decodeToolCalls(msg.tool_calls, this.toolCalls)) {
        this.blocks.closeOpen(this.out);
        const index = this.blocks.take();
        this.toolCalls++;
        this.out.push(
          { type: 'block_start', index, kind: 'tool_call', id: call.id, name: call.name },
          { type: 'tool_args_delta', index, json: call.arguments },
          { type: 'block_stop', index },
        );
      }
    }
    if (obj.done === true) this.done(obj);
  }

  private thinking(text: string): void {
    this.blocks.closeText(this.out);
    this.out.push({ type: 'reasoning_delta', index: this.blocks.openReasoning(this.out, 'ollama'), text });
  }

  private done(last: JsonObject): void {
    this.blocks.closeOpen(this.out);
    this.out.push({ type: 'finish', reason: decodeFinishReason(last.done_reason, this.toolCalls > 0) });
    this.out.push({ type: 'usage', usage: decodeUsage(last) });
    this.out.push({ type: 'end' });
    this.ended = true;
  }
}
