// Same-protocol traffic: the body goes upstream unchanged (the model lives in the path), and
// the SSE chunks go back untouched while their usageMetadata (a running total) is read.
import type { Usage } from '../../model/types.js';
import type { PassthroughStream } from '../codec.js';
import { isJsonObject } from '../framing/json-field.js';
import { SseReader } from '../framing/sse.js';
import { usageFromGemini } from './usage.js';

export function geminiUsageFromResponse(body: unknown): Usage | null {
  return isJsonObject(body) && isJsonObject(body.usageMetadata) ? usageFromGemini(body.usageMetadata) : null;
}

export class GeminiPassthroughStream implements PassthroughStream {
  private readonly reader = new SseReader((_event, data) => this.onChunk(data));
  private latest: Usage | null = null;

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

  private onChunk(data: string): void {
    // Most chunks are text deltas without usage: skip the parse for them.
    if (!data.includes('"usageMetadata"')) return;
    let chunk: unknown;
    try {
      chunk = JSON.parse(data);
    } catch {
      return; // the caller gets the bytes as they came; metering just learns nothing here
    }
    if (isJsonObject(chunk) && isJsonObject(chunk.usageMetadata)) this.latest = usageFromGemini(chunk.usageMetadata);
  }
}
