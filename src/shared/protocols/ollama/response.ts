// Ollama /api/chat non-stream body <-> model response. Ollama has no response id: one is
// made from created_at, so the same body always gives the same id.
import { GatewayError } from '../../errors.js';
import type { ModelResponse, ToolCallPart, Usage } from '../../model/types.js';
import { isJsonObject, type JsonObject } from '../framing/json-field.js';
import { decodeFinishReason, encodeFinishReason } from './finish-reason.js';
import { argumentsObject, argumentsText } from './tool-arguments.js';
import { decodeUsage, encodeUsage } from './usage.js';
import { carryReasoningInCallIds, plainCallId } from '../reasoning/call-id.js';
import { ollamaMessageReasoning, thinkingOf } from './thinking.js';

export function responseId(createdAt: unknown): string {
  const ms = typeof createdAt === 'string' ? Date.parse(createdAt) : NaN;
  return `ollama-${Number.isFinite(ms) ? ms : 0}`;
}

/** Tool calls of one Ollama message, ids synthesized by position from `firstIndex`. */
export function decodeToolCalls(raw: unknown, firstIndex: number): ToolCallPart[] {
  if (!Array.isArray(raw)) return [];
  const calls: ToolCallPart[] = [];
  raw.forEach((tc: unknown, i: number) => {
    if (!isJsonObject(tc) || !isJsonObject(tc.function) || typeof tc.function.name !== 'string') return;
    calls.push({
      type: 'tool_call',
      id: typeof tc.id === 'string' && tc.id !== '' ? plainCallId(tc.id) : `call_${firstIndex + i}`,
      name: tc.function.name,
      arguments: argumentsText(tc.function.arguments),
    });
  });
  return calls;
}

export function encodeToolCall(call: { id: string; name: string; arguments: string }): JsonObject {
  return { id: call.id, function: { name: call.name, arguments: argumentsObject(call.arguments, call.id, 'upstream_error') } };
}

export function decodeResponse(body: unknown): ModelResponse {
  if (!isJsonObject(body) || !isJsonObject(body.message)) {
    throw new GatewayError('upstream_error', 'upstream response is not an Ollama chat response (no message)');
  }
  const msg = body.message;
  const reasoning = ollamaMessageReasoning(msg);
  const content: ModelResponse['content'] = [...reasoning.leading];
  if (typeof msg.content === 'string' && msg.content !== '') content.push({ type: 'text', text: msg.content });
  const calls = decodeToolCalls(msg.tool_calls, 0);
  calls.forEach((call, i) => content.push(...(reasoning.beforeCall[i] ?? []), call));
  return {
    id: responseId(body.created_at),
    model: typeof body.model === 'string' ? body.model : '',
    content,
    finishReason: decodeFinishReason(body.done_reason, calls.length > 0),
    usage: decodeUsage(body),
  };
}

export function usageFromResponse(body: unknown): Usage | null {
  if (!isJsonObject(body) || (body.prompt_eval_count === undefined && body.eval_count === undefined)) return null;
  return decodeUsage(body);
}

/** The fields of a final (done) object; durations the model does not know are 0. */
export function doneFields(reason: ReturnType<typeof encodeFinishReason>, usage: Usage): JsonObject {
  const counts = encodeUsage(usage);
  return {
    done: true,
    done_reason: reason,
    total_duration: 0,
    load_duration: 0,
    prompt_eval_count: counts.prompt_eval_count,
    prompt_eval_duration: 0,
    eval_count: counts.eval_count,
    eval_duration: 0,
  };
}

export function encodeResponse(resp: ModelResponse): string {
  // The ollama family's own reasoning is `thinking`; every other family's rides in a call id (thinking.ts).
  const { texts, reasoning, toolCalls } = carryReasoningInCallIds(resp.content, 'ollama');
  const message: JsonObject = { role: 'assistant', content: texts.join('') };
  const thinking = thinkingOf(reasoning);
  if (thinking !== undefined) message.thinking = thinking;
  if (toolCalls.length > 0) message.tool_calls = toolCalls.map(encodeToolCall);
  return JSON.stringify({
    model: resp.model,
    created_at: new Date().toISOString(),
    message,
    ...doneFields(encodeFinishReason(resp.finishReason), resp.usage),
  });
}
