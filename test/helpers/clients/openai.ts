// OpenAI Chat Completions through the `openai` SDK (client.chat.completions.create).
import OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import { finishTable, sdkClient, type Answer } from './adapter.js';
import { SDK_TIMEOUT_MS, parseArguments, previousCallId } from './types.js';
import type { ChatOptions, NormalizedMessage, NormalizedResult, NormalizedUsage, ProtocolClient, ToolSpec } from './types.js';

/** The SDK pointed at the gateway: `{gateway}/v1`, a throwaway key, no retries. */
export function openaiSdk(gatewayUrl: string): OpenAI {
  return new OpenAI({ baseURL: `${gatewayUrl}/v1`, apiKey: 'sk-test', maxRetries: 0, timeout: SDK_TIMEOUT_MS });
}

function toOpenAiMessages(system: string | undefined, messages: readonly NormalizedMessage[]): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  if (system !== undefined) out.push({ role: 'system', content: system });
  messages.forEach((m, i) => {
    if (m.role === 'user') out.push({ role: 'user', content: m.text });
    else if (m.role === 'assistant') {
      out.push({
        role: 'assistant',
        content: m.text ?? null,
        ...(m.toolCalls !== undefined && m.toolCalls.length > 0
          ? {
              tool_calls: m.toolCalls.map((c, j) => ({
                id: c.id ?? `call_${i}_${j}`,
                type: 'function' as const,
                function: { name: c.name, arguments: JSON.stringify(c.arguments) },
              })),
            }
          : {}),
      });
    } else out.push({ role: 'tool', tool_call_id: m.toolCallId ?? previousCallId(messages, i, 'call'), content: m.content });
  });
  return out;
}

function toOpenAiTools(tools: readonly ToolSpec[] | undefined): ChatCompletionTool[] | undefined {
  return tools?.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
}

/** The Chat Completions request of a chat, but for `stream`, which each send sets. */
function requestOf(opts: ChatOptions) {
  return {
    model: opts.model,
    messages: toOpenAiMessages(opts.system, opts.messages),
    ...(opts.tools !== undefined ? { tools: toOpenAiTools(opts.tools) } : {}),
  };
}

const finishOf = finishTable('openai', { stop: ['stop'], length: ['length'], tool_calls: ['tool_calls', 'function_call'], content_filter: ['content_filter'] });

function usageOf(u: CompletionUsage | null | undefined): NormalizedUsage {
  if (u == null) throw new Error('openai adapter: the answer carries no usage');
  const cached = u.prompt_tokens_details?.cached_tokens ?? 0;
  return { input: u.prompt_tokens - cached, output: u.completion_tokens, cacheRead: cached };
}

function fromCompletion(c: ChatCompletion, answer: Answer): NormalizedResult {
  const choice = c.choices[0];
  if (choice === undefined) throw new Error('openai adapter: no choices');
  for (const call of choice.message.tool_calls ?? []) {
    if (call.type !== 'function') throw new Error(`openai adapter: unexpected tool call type ${call.type}`);
    answer.call({ id: call.id, name: call.function.name, arguments: parseArguments(call.function.arguments) });
  }
  answer.text = choice.message.content ?? '';
  return answer.result(finishOf(choice.finish_reason), usageOf(c.usage));
}

async function fromStream(stream: AsyncIterable<ChatCompletionChunk>, answer: Answer): Promise<NormalizedResult> {
  let finish: string | null = null;
  let usage: CompletionUsage | null = null;
  for await (const chunk of stream) {
    if (chunk.usage != null) usage = chunk.usage;
    const choice = chunk.choices[0];
    if (choice === undefined) continue;
    const delta = choice.delta;
    let content = false;
    if (typeof delta.content === 'string' && delta.content !== '') {
      answer.text += delta.content;
      content = true;
    }
    for (const call of delta.tool_calls ?? []) {
      answer.mergeCall(call.index, call.id, call.function?.name, call.function?.arguments);
      content = true;
    }
    if (choice.finish_reason != null) finish = choice.finish_reason;
    if (content) answer.chunk();
  }
  if (finish === null) throw new Error('openai adapter: the stream ended without a finish_reason');
  return answer.result(finishOf(finish), usageOf(usage));
}

export function openaiClient(gatewayUrl: string): ProtocolClient {
  const sdk = openaiSdk(gatewayUrl);
  return sdkClient('openai', requestOf, {
    whole: async (request, answer) => fromCompletion(await sdk.chat.completions.create({ ...request, stream: false }), answer),
    streamed: async (request, answer) =>
      fromStream(await sdk.chat.completions.create({ ...request, stream: true, stream_options: { include_usage: true } }), answer),
  });
}
