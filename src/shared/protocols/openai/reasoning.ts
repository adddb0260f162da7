// Reasoning on a Chat Completions assistant message. The wire's own field is the de-facto
// `reasoning_content` (DeepSeek, vLLM; `reasoning` on some hosts): text, the openai family's only
// state (DeepSeek's thinking mode wants it back on tool-call turns). Reasoning of another family
// rides to a Chat caller three ways: its text in `reasoning_content` (what clients show), its
// state in LiteLLM's `thinking_blocks` ({type, thinking, signature} or {type, data}) for callers
// that echo the whole message, and all of it in the ids of the tool calls that follow it
// (reasoning/call-id.ts), which every client echoes. Read back in that order of trust: ids
// (they keep each part's place), then thinking_blocks, then reasoning_content.
import type { ReasoningPart } from '../../model/types.js';
import { isJsonObject, type JsonObject } from '../framing/json-field.js';
import { reasoningOfCalls, type MessageReasoning } from '../reasoning/call-id.js';
import { decodeStateToken, encodeStateToken } from '../reasoning/state-token.js';

/** The reasoning a Chat assistant message (a caller's history, or an answer) carries. */
export function chatMessageReasoning(msg: JsonObject): MessageReasoning {
  const fromIds = reasoningOfCalls(msg.tool_calls);
  if (fromIds !== null) return fromIds;
  const beforeCall: ReasoningPart[][] = [];
  const fromBlocks = thinkingBlocksReasoning(msg.thinking_blocks);
  if (fromBlocks.length > 0) return { leading: fromBlocks, beforeCall };
  const text = typeof msg.reasoning_content === 'string' ? msg.reasoning_content : msg.reasoning;
  if (typeof text === 'string' && text !== '') return { leading: [{ type: 'reasoning', text, family: 'openai' }], beforeCall };
  return { leading: [], beforeCall };
}

/** Parts from the gateway's own thinking_blocks; blocks it did not write name no family it can trust: left out. */
function thinkingBlocksReasoning(blocks: unknown): ReasoningPart[] {
  if (!Array.isArray(blocks)) return [];
  const parts: ReasoningPart[] = [];
  for (const b of blocks) {
    if (!isJsonObject(b)) continue;
    if (b.type === 'thinking' && typeof b.signature === 'string') {
      parts.push(...(decodeStateToken(b.signature, typeof b.thinking === 'string' ? b.thinking : '') ?? []));
    } else if (b.type === 'redacted_thinking' && typeof b.data === 'string') {
      parts.push(...(decodeStateToken(b.data) ?? []));
    }
  }
  return parts;
}

/** The reasoning texts as `reasoning_content` (undefined when there is no text). */
export function reasoningContentOf(parts: readonly ReasoningPart[]): string | undefined {
  let text = '';
  for (const p of parts) text += p.text;
  return text === '' ? undefined : text;
}

/** LiteLLM's thinking_blocks for the parts of other families (undefined when there are none). */
export function thinkingBlocksOf(parts: readonly ReasoningPart[]): JsonObject[] | undefined {
  const blocks: JsonObject[] = [];
  for (const p of parts) if (p.family !== 'openai') blocks.push(thinkingBlock(p));
  return blocks.length > 0 ? blocks : undefined;
}

export function thinkingBlock(p: ReasoningPart): JsonObject {
  const token = encodeStateToken([p], false);
  return p.redacted !== undefined && p.text === '' ? { type: 'redacted_thinking', data: token } : { type: 'thinking', thinking: p.text, signature: token };
}
