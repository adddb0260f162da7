// Reasoning on an Ollama chat message: `thinking` is text, the ollama family's only state.
// Reasoning of another family rides to an Ollama caller as `thinking` text (what it shows) and,
// whole, in the ids of the tool calls that follow it (reasoning/call-id.ts): Ollama has no field
// for opaque state, and its clients send a tool call back as they got it. Read back from the ids
// first (they keep each part's place), else from `thinking`.
import type { ReasoningPart } from '../../model/types.js';
import type { JsonObject } from '../framing/json-field.js';
import { reasoningOfCalls, type MessageReasoning } from '../reasoning/call-id.js';

export function ollamaMessageReasoning(msg: JsonObject): MessageReasoning {
  const fromIds = reasoningOfCalls(msg.tool_calls);
  if (fromIds !== null) return fromIds;
  const leading: ReasoningPart[] = typeof msg.thinking === 'string' && msg.thinking !== '' ? [{ type: 'reasoning', text: msg.thinking, family: 'ollama' }] : [];
  return { leading, beforeCall: [] };
}

/** The reasoning texts as `thinking` (undefined when there is no text). */
export function thinkingOf(parts: readonly ReasoningPart[]): string | undefined {
  let text = '';
  for (const p of parts) text += p.text;
  return text === '' ? undefined : text;
}
