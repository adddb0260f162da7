// Ollama native chat through the `ollama` SDK (ollama.chat; stream: true yields NDJSON lines).
import { Ollama, type ChatResponse, type Message, type Tool } from 'ollama';
import {
  finishWithTools,
  unknownFinish,
  type ChatOptions,
  type NormalizedFinish,
  type NormalizedMessage,
  type NormalizedResult,
  type ProtocolClient,
  type ToolCallOut,
  type ToolSpec,
} from './types.js';

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

function finishOf(reason: string | undefined): NormalizedFinish {
  switch (reason) {
    case 'stop':
      return 'stop';
    case 'length':
      return 'length';
    default:
      return unknownFinish('ollama', reason);
  }
}

function toolCallsOf(m: Message | undefined): ToolCallOut[] {
  return (m?.tool_calls ?? []).map((c) => ({ name: c.function.name, arguments: c.function.arguments }));
}

function fromResponse(r: ChatResponse): NormalizedResult {
  const toolCalls = toolCallsOf(r.message);
  return {
    text: r.message?.content ?? '',
    toolCalls,
    finish: finishWithTools(finishOf(r.done_reason), toolCalls),
    // Ollama has no cache field: prompt_eval_count is the evaluated input.
    usage: { input: r.prompt_eval_count ?? 0, output: r.eval_count ?? 0, cacheRead: 0 },
    chunks: 0,
  };
}

async function fromStream(stream: AsyncIterable<ChatResponse>, onChunk?: () => void): Promise<NormalizedResult> {
  let text = '';
  let chunks = 0;
  let last: ChatResponse | null = null;
  const toolCalls: ToolCallOut[] = [];
  for await (const part of stream) {
    const error = (part as { error?: unknown }).error;
    if (error !== undefined) throw new Error(`ollama adapter: error line in the stream: ${String(error)}`);
    const calls = toolCallsOf(part.message);
    const content = part.message?.content ?? '';
    if (content !== '' || calls.length > 0) {
      text += content;
      toolCalls.push(...calls);
      chunks++;
      onChunk?.();
    }
    if (part.done) last = part;
  }
  if (last === null) throw new Error('ollama adapter: the stream ended without a done line');
  return {
    text,
    toolCalls,
    finish: finishWithTools(finishOf(last.done_reason), toolCalls),
    usage: { input: last.prompt_eval_count ?? 0, output: last.eval_count ?? 0, cacheRead: 0 },
    chunks,
  };
}

export function ollamaClient(gatewayUrl: string): ProtocolClient {
  const sdk = ollamaSdk(gatewayUrl);
  return {
    name: 'ollama',
    async chat(opts: ChatOptions): Promise<NormalizedResult> {
      const base = {
        model: opts.model,
        messages: toOllamaMessages(opts.system, opts.messages),
        ...(opts.tools !== undefined ? { tools: toOllamaTools(opts.tools) } : {}),
      };
      if (!opts.stream) return fromResponse(await sdk.chat({ ...base, stream: false }));
      return fromStream(await sdk.chat({ ...base, stream: true }), opts.onChunk);
    },
  };
}
