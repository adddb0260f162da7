// The part every protocol's stream decoder shares: collect the events one chunk completes,
// and hold an upstream error (an error event, a bad frame) until the events before it have
// been handed out, so the caller sees those first and the error on its next call.
import { GatewayError } from '../../errors.js';
import type { StreamEvent } from '../../model/types.js';
import type { StreamDecoder } from '../codec.js';
import type { FastPathMemo } from '../fast-path/codec-fast-path.js';
import { translateFastPath } from '../fast-path/switch.js';
import { JsonShapes } from './shaped-parse.js';

/** A framing reader that takes a stream's chunks as they come: SseReader, NdjsonReader, EventStreamReader. */
export interface ChunkReader {
  push(chunk: Uint8Array): void;
  /** Upstream ended: release a last unterminated frame. */
  end(): void;
}

export abstract class FramedStreamDecoder implements StreamDecoder {
  /** Events completed by the chunk being read. */
  protected out: StreamEvent[] = [];
  /** An upstream error: raised once the events before it have been handed out. */
  protected failure: GatewayError | null = null;

  push(chunk: Uint8Array): StreamEvent[] {
    this.throwIfFailed();
    this.out = [];
    try {
      this.feed(chunk);
    } catch (e) {
      // A bad frame after good ones: the good frames' events still go out first.
      if (!(e instanceof GatewayError) || this.out.length === 0) throw e;
      this.failure = e;
    }
    if (this.out.length === 0) this.throwIfFailed();
    return this.out;
  }

  finish(): StreamEvent[] {
    this.throwIfFailed();
    this.out = [];
    this.flush();
    this.throwIfFailed();
    this.complete();
    return this.out;
  }

  /** Hand the chunk to the framing reader (its callbacks push to `out` or set `failure`). */
  protected abstract feed(chunk: Uint8Array): void;
  /** Upstream ended: let the framing reader release a last unterminated frame. */
  protected abstract flush(): void;
  /** Upstream ended cleanly: throw upstream_error if the stream did not reach its end, else add closing events. */
  protected abstract complete(): void;

  private throwIfFailed(): void {
    if (this.failure !== null) throw this.failure;
  }
}

/**
 * A decoder whose framing reader takes the chunks as they are and whose events are parsed by
 * the lane's learnt shapes: every protocol's but openai's, which keeps its own.
 */
export abstract class ReaderStreamDecoder extends FramedStreamDecoder {
  protected abstract readonly reader: ChunkReader;
  /** The lane's learnt event shapes (shaped-parse.ts); null when the fast paths are off. */
  protected readonly shapes: JsonShapes | null;

  /** `memo`: the lane's, where the events the decoder parses keep their shapes. */
  constructor(memo?: FastPathMemo) {
    super();
    this.shapes = translateFastPath && memo !== undefined ? (memo.eventShapes ??= new JsonShapes()) : null;
  }

  protected feed(chunk: Uint8Array): void {
    this.reader.push(chunk);
  }

  protected flush(): void {
    this.reader.end();
  }

  /**
   * An event's JSON: read by the lane's shape for `kind` when there are shapes, else by
   * JSON.parse. Undefined when it is not JSON (no JSON text parses to undefined).
   */
  protected parsedEvent(kind: string, text: string): unknown {
    try {
      return this.shapes !== null ? this.shapes.parse(kind, text) : JSON.parse(text);
    } catch {
      return undefined;
    }
  }

  /** The stream fails with upstream_error `message`, once the events before it are out. */
  protected fail(message: string): void {
    this.failure = new GatewayError('upstream_error', message);
  }
}
