// Finds the Response object in a Responses stream as it goes to the caller: the `response`
// of its `response.completed` event, which holds the output items a stored response keeps.
// Reads the bytes it is shown without holding them, except from that event's start to its end
// (bounded: an event over `maxBytes` is not kept).
import { isJsonObject, type JsonObject } from '../protocols/framing/json-field.js';

const EVENT = /event: ?response\.completed\r?\n/;
/** Enough of a chunk's end to find the event name split across two chunks. */
const TAIL_CHARS = 32;

export class CompletedResponseWatcher {
  private readonly decoder = new TextDecoder();
  private tail = '';
  private event: string | null = null;
  private found: JsonObject | null = null;
  private over = false;

  constructor(private readonly maxBytes: number) {}

  /** Every piece written to the caller, in order. */
  push(chunk: string | Uint8Array | readonly Uint8Array[]): void {
    if (this.found !== null || this.over) return;
    if (Array.isArray(chunk)) {
      for (const part of chunk as readonly Uint8Array[]) this.push(part);
      return;
    }
    const text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk as Uint8Array, { stream: true });
    if (this.event === null) {
      const seen = this.tail + text;
      const m = EVENT.exec(seen);
      if (m === null) {
        this.tail = seen.slice(-TAIL_CHARS);
        return;
      }
      this.event = seen.slice(m.index);
    } else {
      this.event += text;
    }
    if (this.event.length > this.maxBytes) {
      this.over = true;
      this.event = null;
      return;
    }
    this.tryParse();
  }

  /** The completed Response, or null when none came (the stream failed, or the event was too large). */
  result(): JsonObject | null {
    return this.found;
  }

  private tryParse(): void {
    const event = this.event!;
    const end = event.search(/\r?\n\r?\n/);
    if (end < 0) return;
    const data = /(?:^|\n)data: ?(.*)/.exec(event.slice(0, end));
    this.event = null;
    if (data === null) return;
    try {
      const parsed = JSON.parse(data[1]!) as unknown;
      if (isJsonObject(parsed) && isJsonObject(parsed.response)) this.found = parsed.response;
    } catch {
      // Not JSON: nothing to keep (the caller's SDK sees the same bytes and says so).
    }
  }
}
