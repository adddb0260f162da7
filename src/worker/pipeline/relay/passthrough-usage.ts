// Reading usage from a same-protocol non-stream body without parsing the whole body.
import type { Buffer } from 'node:buffer';
import type { Usage } from '../../../shared/model/types.js';
import type { Codec } from '../../../shared/protocols/codec.js';
import { fastPathOf } from '../../../shared/protocols/fast-path/registry.js';
import { topLevelValueText } from '../../../shared/protocols/framing/json-field.js';
import { UsageShape } from '../../../shared/protocols/framing/usage-shape.js';
import type { LaneRuntime } from '../../runtime.js';

/**
 * Usage of a same-protocol non-stream body: only the usage field is parsed when the protocol
 * keeps usage in one field (the rest of the body may be large and is never needed), and only
 * read in place when the lane's bodies keep one shape (`lane.usageBody`, usage-shape.ts).
 */
export function passthroughUsage(codec: Codec, body: string | Buffer, lane: LaneRuntime | null = null): Usage | null {
  try {
    // The lane's fast path knows where its usage is (a codec without one: the whole body is read).
    const field = (lane !== null ? lane.provider.fastPath : fastPathOf(codec))?.usageField ?? null;
    if (field !== null && lane !== null) {
      const shape = (lane.usageBody ??= new UsageShape(field));
      const usage = typeof body === 'string' ? shape.read(body) : shape.readBytes(body);
      return usage === null ? null : codec.usageFromResponse(usage);
    }
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (field === null) return codec.usageFromResponse(JSON.parse(text));
    const value = topLevelValueText(text, field);
    return value === undefined ? null : codec.usageFromResponse({ [field]: JSON.parse(value) });
  } catch {
    return null; // an unreadable body is relayed as is and billed zero tokens
  }
}
