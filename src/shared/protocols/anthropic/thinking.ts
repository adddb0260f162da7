// Anthropic's reasoning blocks <-> the model's reasoning parts. `thinking` (text and the
// signature over it) and `redacted_thinking` (encrypted data) are Anthropic's own state; a part of
// another family rides in the same blocks for an Anthropic caller, its state as a token in the
// signature or the data (reasoning/state-token.ts), and is read back from them on its next turn.
import type { ReasoningPart } from '../../model/types.js';
import type { JsonObject } from '../framing/json-field.js';
import { decodeStateToken, encodeStateToken, isStateToken } from '../reasoning/state-token.js';

/** A `thinking` or `redacted_thinking` block as parts ([] when its fields are not strings). */
export function partsOfThinkingBlock(b: JsonObject): ReasoningPart[] {
  if (b.type === 'thinking') {
    if (typeof b.thinking !== 'string') return [];
    const signature = typeof b.signature === 'string' ? b.signature : '';
    if (isStateToken(signature)) return decodeStateToken(signature, b.thinking) ?? [];
    return [{ type: 'reasoning', text: b.thinking, family: 'anthropic', signature }];
  }
  if (typeof b.data !== 'string') return [];
  if (isStateToken(b.data)) return decodeStateToken(b.data) ?? [];
  return [{ type: 'reasoning', text: '', family: 'anthropic', redacted: b.data }];
}

/** Whether `p` is written as a redacted_thinking block (it has no text, only encrypted data). */
export function isRedacted(p: ReasoningPart): boolean {
  return p.redacted !== undefined && p.text === '';
}

/** The signature (or redacted data) a caller's block carries for `p`: Anthropic's own, else a token. */
export function carriedSignature(p: ReasoningPart): string {
  if (p.family === 'anthropic') return (isRedacted(p) ? p.redacted : p.signature) ?? '';
  return encodeStateToken([p], false);
}

/** `p` as a block in an answer to an Anthropic caller. */
export function thinkingBlockFor(p: ReasoningPart): JsonObject {
  return isRedacted(p) ? { type: 'redacted_thinking', data: carriedSignature(p) } : { type: 'thinking', thinking: p.text, signature: carriedSignature(p) };
}

/** `p` as a block of an Anthropic lane's history; undefined for another family's part (dropped: only its family reads it). */
export function thinkingBlockForLane(p: ReasoningPart): JsonObject | undefined {
  if (p.family !== 'anthropic') return undefined;
  return thinkingBlockFor(p);
}
