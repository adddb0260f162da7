// Chat Completions non-stream response body <-> model response.
import { GatewayError } from '../../errors.js';
import type { ModelResponse, ToolCallPart } from '../../model/types.js';
import { ZERO_USAGE } from '../../model/types.js';
import { isJsonObject, type JsonObject } from '../framing/json-field.js';
import { decodeFinishReason, encodeFinishReason } from './finish-reason.js';
import { decodeUsage, encodeUsage } from './usage.js';
import { carryReasoningInCallIds, plainCallId } from '../reasoning/call-id.js';
import { chatMessageReasoning, reasoningContentOf, thinkingBlocksOf } from './reasoning.js';

/** Only the first choice is modeled (n > 1 is not in the subset). */
export function decodeResponse(body: unknown): ModelResponse {
  if (!isJsonObject(body) || !Array.isArray(body.choices)) {
    throw new GatewayError('upstream_error', 'upstream response is not a chat completion (no choices)');
  }
  const b = body;
  const first: unknown = body.choices[0];
  const choice = isJsonObject(first) ? first : undefined;
  const content: ModelResponse['content'] = [];
  if (choice !== undefined && isJsonObject(choice.message)) {
    const msg = choice.message;
    const reasoning = chatMessageReasoning(msg);
    content.push(...reasoning.leading);
    if (typeof msg.content === 'string' && msg.content !== '') content.push({ type: 'text', text: msg.content });
    else if (typeof msg.refusal === 'string' && msg.refusal !== '') content.push({ type: 'text', text: msg.refusal });
    if (Array.isArray(msg.tool_calls)) {
      msg.tool_calls.forEach((tc: unknown, i: number) => {
        if (!isJsonObject(tc) || !isJsonObject(tc.function)) return;
        const fn = tc.function;
        if (typeof fn.name !== 'string') throw new GatewayError('upstream_error', `upstream tool call ${i} has no name`);
        content.push(...(reasoning.beforeCall[i] ?? []));
        content.push({
          type: 'tool_call',
          id: typeof tc.id === 'string' ? plainCallId(tc.id) : `call_${i}`,
          name: fn.name,
          arguments: typeof fn.arguments === 'string' ? fn.arguments : '',
        });
      });
    }
  }
  return {
    id: typeof b.id === 'string' ? b.id : '',
    model: typeof b.model === 'string' ? b.model : '',
    content,
    finishReason: decodeFinishReason(choice?.finish_reason),
    usage: decodeUsage(b.usage) ?? { ...ZERO_USAGE },
  };
}

function chatToolCall(call: ToolCallPart): JsonObject {
  return { id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } };
}

export function encodeResponse(resp: ModelResponse): string {
  // The openai family's own reasoning is `reasoning_content`; every other family's rides in a call id (openai/reasoning.ts).
  const { texts, reasoning, toolCalls } = carryReasoningInCallIds(resp.content, 'openai');
  const message: JsonObject = {
    role: 'assistant',
    // A response message's content is one string: several text blocks are joined.
    content: texts.length > 0 ? texts.join('') : null,
    refusal: null,
  };
  const reasoningContent = reasoningContentOf(reasoning);
  if (reasoningContent !== undefined) message.reasoning_content = reasoningContent;
  const thinkingBlocks = thinkingBlocksOf(reasoning);
  if (thinkingBlocks !== undefined) message.thinking_blocks = thinkingBlocks;
  if (toolCalls.length > 0) message.tool_calls = toolCalls.map(chatToolCall);
  return JSON.stringify({
    id: resp.id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: resp.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: encodeFinishReason(resp.finishReason) }],
    usage: encodeUsage(resp.usage),
  });
}

export function usageFromResponse(body: unknown): ReturnType<typeof decodeUsage> {
  return isJsonObject(body) ? decodeUsage(body.usage) : null;
}
