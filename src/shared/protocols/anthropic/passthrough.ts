// Same-protocol traffic: the caller's body goes upstream with only `model` rewritten, and the
// upstream's SSE bytes go back untouched while message_start / message_delta are read for usage.
import type { Usage } from '../../model/types.js';
import { isJsonObject } from '../framing/json-field.js';
import { MeteredPassthrough } from '../framing/metered-passthrough.js';
import { SseReader } from '../framing/sse.js';
import { JsonShapes } from '../framing/shaped-parse.js';
import type { FastPathMemo } from '../fast-path/codec-fast-path.js';
import { mergeAnthropicUsage, usageFromAnthropic } from './usage.js';

export function anthropicUsageFromResponse(body: unknown): Usage | null {
  return isJsonObject(body) && isJsonObject(body.usage) ? usageFromAnthropic(body.usage) : null;
}

export class AnthropicPassthroughStream extends MeteredPassthrough {
  protected readonly reader = new SseReader((event, data) => this.onEvent(event, data));

  /** `shapes`: the lane's learnt event shapes (shaped-parse.ts); the two events are parsed when null. */
  constructor(private readonly shapes: JsonShapes | null = null) {
    super();
  }

  /** A copy: the running total is merged into in place. */
  override usage(): Usage | null {
    return this.latest === null ? null : { ...this.latest };
  }

  private onEvent(event: string | undefined, data: string): void {
    // Only two events carry usage; the many deltas are never parsed.
    if (event !== undefined && event !== 'message_start' && event !== 'message_delta') return;
    let msg: unknown;
    try {
      msg = this.shapes !== null ? this.shapes.parse(event ?? '', data) : JSON.parse(data);
    } catch {
      return; // the caller gets the bytes as they came; metering just learns nothing here
    }
    if (!isJsonObject(msg)) return;
    let u: unknown;
    if (msg.type === 'message_start' && isJsonObject(msg.message)) u = msg.message.usage;
    else if (msg.type === 'message_delta') u = msg.usage;
    if (!isJsonObject(u)) return;
    this.latest ??= { input: 0, output: 0, cacheRead: 0, cacheCreation: 0 };
    mergeAnthropicUsage(this.latest, u);
  }
}

/** A same-protocol Anthropic stream; `memo`: the lane's, where its usage events keep their shapes. */
export function anthropicPassthroughStream(memo?: FastPathMemo): AnthropicPassthroughStream {
  return new AnthropicPassthroughStream(memo === undefined ? null : (memo.eventShapes ??= new JsonShapes()));
}
