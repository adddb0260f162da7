// OpenAI Chat Completions through the `openai` SDK (client.chat.completions.create).
import OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import {
  SDK_TIMEOUT_MS,
  parseArguments,
  previousCallId,
  unknownFinish,
  type ChatOptions,
  type NormalizedFinish,
  type NormalizedMessage,
  type NormalizedResult,
  type NormalizedUsage,
  type ProtocolClient,
  type ToolSpec,
} from './types.js';

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

function finishOf(reason: string | null | undefined): NormalizedFinish {
  switch (reason) {
    case 'stop':
      return 'stop';
    case 'length':
      return 'length';
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls';
    case 'content_filter':
      return 'content_filter';
    default:
      return unknownFinish('openai', reason);
  }
}

function usageOf(u: CompletionUsage | null | undefined): NormalizedUsage {
  if (u == null) throw new Error('openai adapter: the answer carries no usage');
  const cached = u.prompt_tokens_details?.cached_tokens ?? 0;
  return { input: u.prompt_tokens - cached, output: u.completion_tokens, cacheRead: cached };
}

function fromCompletion(c: ChatCompletion): NormalizedResult {
  const choice = c.choices[0];
  if (choice === undefined) throw new Error('openai adapter: no choices');
  const toolCalls = (choice.message.tool_calls ?? []).map((call) => {
    if (call.type !== 'function') throw new Error(`openai adapter: unexpected tool call type ${call.type}`);
    return { id: call.id, name: call.function.name, arguments: parseArguments(call.function.arguments) };
  });
  return { text: choice.message.content ?? '', toolCalls, finish: finishOf(choice.finish_reason), usage: usageOf(c.usage), chunks: 0 };
}

interface ToolAccumulator {
  id?: string;
  name: string;
  args: string;
}

async function fromStream(stream: AsyncIterable<ChatCompletionChunk>, onChunk?: () => void): Promise<NormalizedResult> {
  let text = '';
  let finish: string | null = null;
  let usage: CompletionUsage | null = null;
  let chunks = 0;
  const tools: ToolAccumulator[] = [];
  for await (const chunk of stream) {
    if (chunk.usage != null) usage = chunk.usage;
    const choice = chunk.choices[0];
    if (choice === undefined) continue;
    const delta = choice.delta;
    let content = false;
    if (typeof delta.content === 'string' && delta.content !== '') {
      text += delta.content;
      content = true;
    }
    for (const call of delta.tool_calls ?? []) {
      const acc = (tools[call.index] ??= { name: '', args: '' });
      if (call.id) acc.id = call.id;
      if (call.function?.name) acc.name += call.function.name;
      if (call.function?.arguments) acc.args += call.function.arguments;
      content = true;
    }
    if (choice.finish_reason != null) finish = choice.finish_reason;
    if (content) {
      chunks++;
      onChunk?.();
    }
  }
  if (finish === null) throw new Error('openai adapter: the stream ended without a finish_reason');
  return {
    text,
    toolCalls: tools.map((t) => ({ id: t.id, name: t.name, arguments: parseArguments(t.args) })),
    finish: finishOf(finish),
    usage: usageOf(usage),
    chunks,
  };
}

export function openaiClient(gatewayUrl: string): ProtocolClient {
  const sdk = openaiSdk(gatewayUrl);
  return {
    name: 'openai',
    async chat(opts: ChatOptions): Promise<NormalizedResult> {
      const base = {
        model: opts.model,
        messages: toOpenAiMessages(opts.system, opts.messages),
        ...(opts.tools !== undefined ? { tools: toOpenAiTools(opts.tools) } : {}),
      };
      if (!opts.stream) return fromCompletion(await sdk.chat.completions.create({ ...base, stream: false }));
      const stream = await sdk.chat.completions.create({ ...base, stream: true, stream_options: { include_usage: true } });
      return fromStream(stream, opts.onChunk);
    },
  };
}
