// Converse reasoningContent blocks <-> the model's reasoning parts: `reasoningText` (text and
// the signature over it) and `redactedContent` (encrypted bytes, base64 on the wire) are the
// bedrock family's state. Reasoning of another family rides to a Bedrock caller in the same
// block, its state as a token in the signature, or in redactedContent when it has no text (a
// token is canonical base64, so it survives the SDKs' decoding of those bytes).
import type { ReasoningPart } from '../../model/types.js';
import { isJsonObject, type JsonObject } from '../framing/json-field.js';
import { decodeStateToken, encodeStateToken, isStateToken } from '../reasoning/state-token.js';

/** A reasoningContent block's value as parts ([] when it holds neither member). */
export function partsOfReasoningContent(rc: unknown): ReasoningPart[] {
  if (!isJsonObject(rc)) return [];
  if (isJsonObject(rc.reasoningText)) {
    const text = typeof rc.reasoningText.text === 'string' ? rc.reasoningText.text : '';
    const signature = typeof rc.reasoningText.signature === 'string' ? rc.reasoningText.signature : undefined;
    if (signature !== undefined && isStateToken(signature)) return decodeStateToken(signature, text) ?? [];
    const part: ReasoningPart = { type: 'reasoning', text, family: 'bedrock' };
    if (signature !== undefined) part.signature = signature;
    return [part];
  }
  if (typeof rc.redactedContent === 'string') {
    if (isStateToken(rc.redactedContent)) return decodeStateToken(rc.redactedContent) ?? [];
    return [{ type: 'reasoning', text: '', family: 'bedrock', redacted: rc.redactedContent }];
  }
  return [];
}

/** Whether `p` is written as redactedContent (no text, only encrypted data). */
export function isRedacted(p: ReasoningPart): boolean {
  return p.redacted !== undefined && p.text === '';
}

/** The state a caller's block carries for `p` (signature, or redactedContent when isRedacted): Bedrock's own, else a token. */
export function carriedState(p: ReasoningPart): string | undefined {
  if (p.family !== 'bedrock') return encodeStateToken([p], false);
  return isRedacted(p) ? p.redacted : p.signature;
}

/** `p` as a reasoningContent block of an answer to a Bedrock caller. */
export function reasoningBlockFor(p: ReasoningPart): JsonObject {
  const state = carriedState(p);
  if (isRedacted(p)) return { reasoningContent: { redactedContent: state } };
  const reasoningText: JsonObject = { text: p.text };
  if (state !== undefined) reasoningText.signature = state;
  return { reasoningContent: { reasoningText } };
}

/** `p` as a block of a Bedrock lane's history; undefined for another family's part (only its family reads it: dropped). */
export function reasoningBlockForLane(p: ReasoningPart): JsonObject | undefined {
  return p.family === 'bedrock' ? reasoningBlockFor(p) : undefined;
}
