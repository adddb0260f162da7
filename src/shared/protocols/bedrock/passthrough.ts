// Same-protocol traffic: the body goes upstream unchanged (the model lives in the path), and
// the event-stream bytes go back untouched while the frames are read for the metadata event.
import type { Usage } from '../../model/types.js';
import type { PassthroughStream } from '../codec.js';
import { isJsonObject } from '../framing/json-field.js';
import { EventStreamReader, headerString, payloadText, type EventFrame } from './event-stream.js';
import { usageFromBedrock } from './usage.js';

export function bedrockUsageFromResponse(body: unknown): Usage | null {
  return isJsonObject(body) && isJsonObject(body.usage) ? usageFromBedrock(body.usage) : null;
}

export class BedrockPassthroughStream implements PassthroughStream {
  private readonly reader = new EventStreamReader((f) => this.onFrame(f));
  private latest: Usage | null = null;
  /** A bad frame stops the metering read; the caller still gets every byte as it came. */
  private broken = false;

  push(chunk: Uint8Array): Uint8Array {
    if (!this.broken) {
      try {
        this.reader.push(chunk);
      } catch {
        this.broken = true;
      }
    }
    return chunk;
  }

  end(): string {
    return '';
  }

  usage(): Usage | null {
    return this.latest;
  }

  private onFrame(f: EventFrame): void {
    // Only the metadata event carries usage: the deltas' payloads are never parsed.
    if (headerString(f, ':event-type') !== 'metadata') return;
    let payload: unknown;
    try {
      payload = JSON.parse(payloadText(f));
    } catch {
      return;
    }
    if (isJsonObject(payload) && isJsonObject(payload.usage)) this.latest = usageFromBedrock(payload.usage);
  }
}
