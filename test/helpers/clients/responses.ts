// OpenAI Responses through the `openai` SDK (client.responses.create).
import type OpenAI from 'openai';
import type { FunctionTool, Response, ResponseInputItem, ResponseStreamEvent, ResponseUsage } from 'openai/resources/responses/responses';
import { openaiSdk } from './openai.js';
import { sdkClient, type Answer } from './adapter.js';
import { parseArguments, previousCallId, unknownFinish } from './types.js';
import type { ChatOptions, NormalizedFinish, NormalizedMessage, NormalizedResult, NormalizedUsage, ProtocolClient, ToolSpec } from './types.js';

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

/** The Responses request of a chat, but for `stream`, which each send sets. */
function requestOf(opts: ChatOptions) {
  const instructions = opts.system !== undefined ? { instructions: opts.system } : {};
  return {
    model: opts.model,
    input: toResponsesInput(opts.messages),
    ...instructions,
    ...(opts.tools !== undefined ? { tools: toResponsesTools(opts.tools) } : {}),
  };
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

function fromResponse(r: Response, answer: Answer): NormalizedResult {
  for (const item of r.output) {
    if (item.type === 'message') {
      for (const part of item.content) if (part.type === 'output_text') answer.text += part.text;
    } else if (item.type === 'function_call') {
      answer.call({ id: item.call_id, name: item.name, arguments: parseArguments(item.arguments) });
    }
  }
  return answer.result(finishOf(r, answer.toolCalls.length > 0), usageOf(r.usage));
}

async function fromStream(stream: AsyncIterable<ResponseStreamEvent>, answer: Answer): Promise<NormalizedResult> {
  let final: Response | null = null;
  for await (const event of stream) {
    switch (event.type) {
      case 'response.output_text.delta':
        answer.delta(event.delta);
        break;
      case 'response.output_item.added':
        if (event.item.type === 'function_call') answer.openCall(event.output_index, event.item.call_id, event.item.name, event.item.arguments ?? '');
        break;
      case 'response.function_call_arguments.delta':
        answer.callDelta(event.output_index, event.delta);
        break;
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
  return answer.result(finishOf(final, answer.toolCalls.length > 0), usageOf(final.usage));
}

export function responsesClient(gatewayUrl: string, sdk: OpenAI = openaiSdk(gatewayUrl)): ProtocolClient {
  return sdkClient('responses', requestOf, {
    whole: async (request, answer) => fromResponse(await sdk.responses.create({ ...request, stream: false }), answer),
    streamed: async (request, answer) => fromStream(await sdk.responses.create({ ...request, stream: true }), answer),
  });
}
