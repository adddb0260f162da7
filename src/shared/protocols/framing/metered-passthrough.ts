// A same-protocol stream whose bytes go back to the caller as they came while a reader (SSE,
// NDJSON) finds the events that carry usage. The base does the byte chores; a codec's subclass
// makes the reader and keeps the latest usage from the events it picks out.
import type { Usage } from '../../model/types.js';
import type { PassthroughStream } from '../codec.js';
import type { ChunkReader } from './stream-decoder-base.js';

export abstract class MeteredPassthrough implements PassthroughStream {
  protected abstract readonly reader: ChunkReader;
  /** The last complete usage report read, or null while none arrived. */
  protected latest: Usage | null = null;

  push(chunk: Uint8Array): Uint8Array {
    this.reader.push(chunk);
    return chunk;
  }

  end(): string {
    this.reader.end();
    return '';
  }

  usage(): Usage | null {
    return this.latest;
  }
}

/**
 * An event's JSON, or undefined when it is not JSON: the caller gets the bytes as they came,
 * and metering just learns nothing from that event.
 */
export function parsedOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
