// Same-protocol traffic: the body goes upstream unchanged (the model lives in the path), and
// the SSE chunks go back untouched while their usageMetadata (a running total) is read.
import type { Usage } from '../../model/types.js';
import { isJsonObject } from '../framing/json-field.js';
import { MeteredPassthrough, parsedOrUndefined } from '../framing/metered-passthrough.js';
import { SseReader } from '../framing/sse.js';
import { usageFromGemini } from './usage.js';

export function geminiUsageFromResponse(body: unknown): Usage | null {
  return isJsonObject(body) && isJsonObject(body.usageMetadata) ? usageFromGemini(body.usageMetadata) : null;
}

export class GeminiPassthroughStream extends MeteredPassthrough {
  protected readonly reader = new SseReader((_event, data) => this.onChunk(data));

  private onChunk(data: string): void {
    // Most chunks are text deltas without usage: skip the parse for them.
    if (!data.includes('"usageMetadata"')) return;
    const chunk = parsedOrUndefined(data);
    if (isJsonObject(chunk) && isJsonObject(chunk.usageMetadata)) this.latest = usageFromGemini(chunk.usageMetadata);
  }
}
