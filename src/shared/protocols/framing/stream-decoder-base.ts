// The part every protocol's stream decoder shares: collect the events one chunk completes,
// and hold an upstream error (an error event, a bad frame) until the events before it have
// been handed out, so the caller sees those first and the error on its next call.
import { GatewayError } from '../../errors.js';
import type { StreamEvent } from '../../model/types.js';
import type { StreamDecoder } from '../codec.js';

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
