// Ollama native chat through the `ollama` SDK (ollama.chat; stream: true yields NDJSON lines).
import { Ollama, type ChatResponse, type Message, type Tool } from 'ollama';
import { finishTable, sdkClient, type Answer } from './adapter.js';
import { finishWithTools } from './types.js';
import type { ChatOptions, NormalizedMessage, NormalizedResult, ProtocolClient, ToolCallOut, ToolSpec } from './types.js';

/** The SDK pointed at the gateway (it appends /api/chat). It has no retries to turn off. */
export function ollamaSdk(gatewayUrl: string): Ollama {
  return new Ollama({ host: gatewayUrl });
}

function toOllamaMessages(system: string | undefined, messages: readonly NormalizedMessage[]): Message[] {
  const out: Message[] = [];
  if (system !== undefined) out.push({ role: 'system', content: system });
  for (const m of messages) {
    if (m.role === 'user') out.push({ role: 'user', content: m.text });
    else if (m.role === 'assistant') {
      out.push({
        role: 'assistant',
        content: m.text ?? '',
        ...(m.toolCalls !== undefined && m.toolCalls.length > 0
          ? { tool_calls: m.toolCalls.map((c) => ({ function: { name: c.name, arguments: c.arguments as Record<string, unknown> } })) }
          : {}),
      });
    } else out.push({ role: 'tool', content: m.content, tool_name: m.name });
  }
  return out;
}

function toOllamaTools(tools: readonly ToolSpec[] | undefined): Tool[] | undefined {
  return tools?.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.parameters as Tool['function']['parameters'] },
  }));
}

/** The chat request, but for `stream`, which each send sets. */
function requestOf(opts: ChatOptions) {
  const messages = toOllamaMessages(opts.system, opts.messages);
  return { model: opts.model, messages, ...(opts.tools !== undefined ? { tools: toOllamaTools(opts.tools) } : {}) };
}

const finishOf = finishTable('ollama', { stop: ['stop'], length: ['length'] });

function toolCallsOf(m: Message | undefined): ToolCallOut[] {
  return (m?.tool_calls ?? []).map((c) => ({ name: c.function.name, arguments: c.function.arguments }));
}

function fromResponse(r: ChatResponse, answer: Answer): NormalizedResult {
  const toolCalls = toolCallsOf(r.message);
  answer.text = r.message?.content ?? '';
  answer.call(...toolCalls);
  // Ollama has no cache field: prompt_eval_count is the evaluated input.
  return answer.result(finishWithTools(finishOf(r.done_reason), toolCalls), { input: r.prompt_eval_count ?? 0, output: r.eval_count ?? 0, cacheRead: 0 });
}

async function fromStream(stream: AsyncIterable<ChatResponse>, answer: Answer): Promise<NormalizedResult> {
  let last: ChatResponse | null = null;
  for await (const part of stream) {
    const error = (part as { error?: unknown }).error;
    if (error !== undefined) throw new Error(`ollama adapter: error line in the stream: ${String(error)}`);
    answer.content(part.message?.content ?? '', toolCallsOf(part.message));
    if (part.done) last = part;
  }
  if (last === null) throw new Error('ollama adapter: the stream ended without a done line');
  return answer.result(finishWithTools(finishOf(last.done_reason), answer.toolCalls), {
    input: last.prompt_eval_count ?? 0,
    output: last.eval_count ?? 0,
    cacheRead: 0,
  });
}

export function ollamaClient(gatewayUrl: string): ProtocolClient {
  const sdk = ollamaSdk(gatewayUrl);
  return sdkClient('ollama', requestOf, {
    whole: async (request, answer) => fromResponse(await sdk.chat({ ...request, stream: false }), answer),
    streamed: async (request, answer) => fromStream(await sdk.chat({ ...request, stream: true }), answer),
  });
}
