// Server-sent events in both directions. Parsing is eventsource-parser's; this file only
// bridges bytes to it (a streaming TextDecoder keeps multi-byte characters split across
// chunks intact) and writes frames.
import { createParser, type EventSourceParser } from 'eventsource-parser';

export type SseHandler = (event: string | undefined, data: string) => void;

/** Incremental SSE reader: push bytes as they arrive, `onEvent` fires per complete event. */
export class SseReader {
  private readonly decoder = new TextDecoder();
  private readonly parser: EventSourceParser;

  constructor(onEvent: SseHandler) {
    this.parser = createParser({ onEvent: (m) => onEvent(m.event, m.data) });
  }

  push(chunk: Uint8Array): void {
    this.parser.feed(this.decoder.decode(chunk, { stream: true }));
  }

  /** Flush a trailing event that had no blank line after it. */
  end(): void {
    this.parser.feed(this.decoder.decode() + '\n\n');
  }
}

/** One SSE frame: `event:` line when named, then `data:`. `data` must not contain newlines (JSON.stringify never does). */
export function sseFrame(data: string, event?: string): string {
  return event === undefined ? `data: ${data}\n\n` : `event: ${event}\ndata: ${data}\n\n`;
}
