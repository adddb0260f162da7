// OpenAI Responses through the `openai` SDK (client.responses.create).
import type OpenAI from 'openai';
import type { FunctionTool, Response, ResponseInputItem, ResponseStreamEvent, ResponseUsage } from 'openai/resources/responses/responses';
import { openaiSdk } from './openai.js';
import {
  parseArguments,
  previousCallId,
  unknownFinish,
  type ChatOptions,
  type NormalizedFinish,
  type NormalizedMessage,
  type NormalizedResult,
  type NormalizedUsage,
  type ProtocolClient,
  type ToolCallOut,
  type ToolSpec,
} from './types.js';

function toResponsesInput(messages: readonly NormalizedMessage[]): ResponseInputItem[] {
  const out: ResponseInputItem[] = [];
  messages.forEach((m, i) => {
    if (m.role === 'user') out.push({ role: 'user', content: m.text });
    else if (m.role === 'assistant') {
      if (m.text !== undefined && m.text !== '') out.push({ role: 'assistant', content: m.text });
      (m.toolCalls ?? []).forEach((c, j) =>
        out.push({ type: 'function_call', call_id: c.id ?? `call_${i}_${j}`, name: c.name, arguments: JSON.stringify(c.arguments) }),
      );
    } else out.push({ type: 'function_call_output', call_id: m.toolCallId ?? previousCallId(messages, i, 'call'), output: m.content });
  });
  return out;
}

function toResponsesTools(tools: readonly ToolSpec[] | undefined): FunctionTool[] | undefined {
  return tools?.map((t) => ({ type: 'function', name: t.name, description: t.description, parameters: t.parameters, strict: false }));
}

function usageOf(u: ResponseUsage | null | undefined): NormalizedUsage {
  if (u == null) throw new Error('responses adapter: the response carries no usage');
  const cached = u.input_tokens_details?.cached_tokens ?? 0;
  return { input: u.input_tokens - cached, output: u.output_tokens, cacheRead: cached };
}

/** Responses has no finish reason: a completed response stops (or calls tools), an incomplete one says why. */
function finishOf(r: Response, hasToolCalls: boolean): NormalizedFinish {
  if (r.status === 'completed') return hasToolCalls ? 'tool_calls' : 'stop';
  if (r.status === 'incomplete') {
    const reason = r.incomplete_details?.reason;
    if (reason === 'max_output_tokens') return 'length';
    if (reason === 'content_filter') return 'content_filter';
  }
  return unknownFinish('responses', `${r.status}/${r.incomplete_details?.reason ?? ''}`);
}

function fromResponse(r: Response): NormalizedResult {
  let text = '';
  const toolCalls: ToolCallOut[] = [];
  for (const item of r.output) {
    if (item.type === 'message') {
      for (const part of item.content) if (part.type === 'output_text') text += part.text;
    } else if (item.type === 'function_call') {
      toolCalls.push({ id: item.call_id, name: item.name, arguments: parseArguments(item.arguments) });
    }
  }
  return { text, toolCalls, finish: finishOf(r, toolCalls.length > 0), usage: usageOf(r.usage), chunks: 0 };
}

interface ToolAccumulator {
  id?: string;
  name: string;
  args: string;
}

async function fromStream(stream: AsyncIterable<ResponseStreamEvent>, onChunk?: () => void): Promise<NormalizedResult> {
  let text = '';
  let chunks = 0;
  let final: Response | null = null;
  const tools = new Map<number, ToolAccumulator>();
  for await (const event of stream) {
    switch (event.type) {
      case 'response.output_text.delta':
        text += event.delta;
        chunks++;
        onChunk?.();
        break;
      case 'response.output_item.added':
        if (event.item.type === 'function_call')
          tools.set(event.output_index, { id: event.item.call_id, name: event.item.name, args: event.item.arguments ?? '' });
        break;
      case 'response.function_call_arguments.delta': {
        const acc = tools.get(event.output_index);
        if (acc === undefined) throw new Error(`responses adapter: arguments delta for unknown output ${event.output_index}`);
        acc.args += event.delta;
        chunks++;
        onChunk?.();
        break;
      }
      case 'response.completed':
      case 'response.incomplete':
        final = event.response;
        break;
      case 'response.failed':
        throw new Error(`responses adapter: response.failed: ${JSON.stringify(event.response.error)}`);
      case 'error':
        throw new Error(`responses adapter: error event: ${event.message}`);
      default:
        break;
    }
  }
  if (final === null) throw new Error('responses adapter: the stream ended without response.completed');
  const toolCalls = [...tools.entries()].sort((a, b) => a[0] - b[0]).map(([, t]) => ({ id: t.id, name: t.name, arguments: parseArguments(t.args) }));
  return { text, toolCalls, finish: finishOf(final, toolCalls.length > 0), usage: usageOf(final.usage), chunks };
}

export function responsesClient(gatewayUrl: string, sdk: OpenAI = openaiSdk(gatewayUrl)): ProtocolClient {
  return {
    name: 'responses',
    async chat(opts: ChatOptions): Promise<NormalizedResult> {
      const base = {
        model: opts.model,
        input: toResponsesInput(opts.messages),
        ...(opts.system !== undefined ? { instructions: opts.system } : {}),
        ...(opts.tools !== undefined ? { tools: toResponsesTools(opts.tools) } : {}),
      };
      if (!opts.stream) return fromResponse(await sdk.responses.create({ ...base, stream: false }));
      return fromStream(await sdk.responses.create({ ...base, stream: true }), opts.onChunk);
    },
  };
}
