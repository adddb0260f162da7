// The fast path a codec may carry beside its contract (codec.ts never names it): what lets a
// same-protocol request skip parsing its body and a lane's streams be read by learnt layouts.
// Everything here gives the same bytes as the codec's general members; it only costs less.
// The pipeline finds a codec's fast path once (fastPathOf, registry.ts), never per request.
import type { EventShape } from '../framing/event-shape.js';
import type { JsonShapes } from '../framing/shaped-parse.js';
import type { LaneMemo } from '../codec.js';
import type { ChatDeltaLayouts } from '../openai/stream-fast-path.js';
import type { GeminiTextLayouts } from '../gemini/stream-fast-path.js';
import type { ResponsesDeltaLayouts } from '../responses/stream-fast-path.js';

export interface CodecFastPath {
  /**
   * Every top-level request member that requestedModel, requestedStream, streamUsageRequested,
   * passthroughBody and createPassthroughStream read: given only these (framing/top-level-
   * members.ts), they answer as with the whole body, so a same-protocol request is not parsed
   * whole. Absent: they need the whole body.
   */
  readonly requestMembers?: readonly string[];
  /**
   * What passthroughBody does to this request when it can be done over the caller's bytes
   * (framing/passthrough-bytes.ts): 'none', the body goes as it came; 'model', only the
   * top-level `model` member is set to the upstream model (then `model` is requestMembers[0]).
   * Undefined: only passthroughBody can say. `head` holds requestMembers at least.
   */
  passthroughEdit?(head: unknown, stream: boolean): 'none' | 'model' | undefined;
  /**
   * The top-level field of a non-stream response that holds all of its usage, or null when
   * usage is spread over top-level fields. Lets a passthrough body be metered by parsing that
   * one field instead of the whole response.
   */
  readonly usageField: string | null;
}

/** What a lane keeps between its requests about how its upstream writes (framing/*-shape.ts, the stream fast paths). */
export interface FastPathMemo {
  /** Its stream usage event's shape, for same-protocol streams: Chat Completions and Responses. */
  usageEvent: EventShape | null;
  /** The shapes of the stream events it parses, by event type: the Responses, Anthropic and Bedrock decoders, the Chat Completions decoder's first chunk, Anthropic's passthrough. */
  eventShapes: JsonShapes | null;
  /** The layouts of its Responses text and arguments deltas (responses/stream-fast-path.ts). */
  responsesDeltas: ResponsesDeltaLayouts | null;
  /** The layout of its Chat Completions text-delta chunks (openai/stream-fast-path.ts). */
  chatDeltas: ChatDeltaLayouts | null;
  /** The layout of its Gemini text chunks (gemini/stream-fast-path.ts). */
  geminiText: GeminiTextLayouts | null;
}

/** The lane's memo as the fast paths read it (the lane runtime is one: src/worker/runtime.ts). */
export function fastPathMemo(memo: LaneMemo | undefined): FastPathMemo | undefined {
  return memo as FastPathMemo | undefined;
}
