// Ollama NDJSON lines -> model stream events. Each line carries message.content (text) and/or
// message.tool_calls (each call whole, arguments as an object); the last line has done: true
// with done_reason and the counts. A line {"error": ...} raises an upstream error.
import { GatewayError } from '../../errors.js';
import type { StreamEvent } from '../../model/types.js';
import type { StreamDecoder } from '../codec.js';
import { isJsonObject, type JsonObject } from '../framing/json-field.js';
import { NdjsonReader } from '../framing/ndjson.js';
import { decodeFinishReason } from './finish-reason.js';
import { decodeToolCalls, responseId } from './response.js';
import { decodeUsage } from './usage.js';

const NONE = -1;

export class OllamaStreamDecoder implements StreamDecoder {
  private readonly reader = new NdjsonReader((line) => this.onLine(line));
  private events: StreamEvent[] = [];
  private started = false;
  private ended = false;
  private nextBlock = 0;
  private textBlock = NONE;
  private toolCalls = 0;

  push(chunk: Uint8Array): StreamEvent[] {
    this.events = [];
    this.reader.push(chunk);
    return this.events;
  }

  finish(): StreamEvent[] {
    this.events = [];
    this.reader.end();
    if (!this.ended) this.done(undefined);
    return this.events;
  }

  private onLine(line: string): void {
    if (this.ended) return;
    let obj: unknown;
    try {
      obj = JSON.parse(line);
    } catch {
      throw new GatewayError('upstream_error', 'upstream sent a stream line that is not JSON');
    }
    if (!isJsonObject(obj)) return;
    if (typeof obj.error === 'string') throw new GatewayError('upstream_error', obj.error);
    if (!this.started) {
      this.started = true;
      this.events.push({ type: 'start', id: responseId(obj.created_at), model: typeof obj.model === 'string' ? obj.model : '' });
    }
    const msg = isJsonObject(obj.message) ? obj.message : undefined;
    if (msg !== undefined) {
      if (typeof msg.content === 'string' && msg.content !== '') this.text(msg.content);
      for (const call of decodeToolCalls(msg.tool_calls, this.toolCalls)) {
        this.closeText();
        const index = this.nextBlock++;
        this.toolCalls++;
        this.events.push(
          { type: 'block_start', index, kind: 'tool_call', id: call.id, name: call.name },
          { type: 'tool_args_delta', index, json: call.arguments },
          { type: 'block_stop', index },
        );
      }
    }
    if (obj.done === true) this.done(obj);
  }

  private text(text: string): void {
    if (this.textBlock === NONE) {
      this.textBlock = this.nextBlock++;
      this.events.push({ type: 'block_start', index: this.textBlock, kind: 'text' });
    }
    this.events.push({ type: 'text_delta', index: this.textBlock, text });
  }

  private closeText(): void {
    if (this.textBlock === NONE) return;
    this.events.push({ type: 'block_stop', index: this.textBlock });
    this.textBlock = NONE;
  }

  /** The done line, or the end of the bytes without one (then: stop, no usage). */
  private done(last: JsonObject | undefined): void {
    if (!this.started) throw new GatewayError('upstream_error', 'upstream stream ended before its first line');
    this.closeText();
    this.events.push({ type: 'finish', reason: decodeFinishReason(last?.done_reason, this.toolCalls > 0) });
    if (last !== undefined) this.events.push({ type: 'usage', usage: decodeUsage(last) });
    this.events.push({ type: 'end' });
    this.ended = true;
  }
}
