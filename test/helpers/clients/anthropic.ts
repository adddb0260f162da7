// Anthropic Messages through `@anthropic-ai/sdk` (client.messages.create, stream: true for the
// raw event stream, which the SDK parses).
import Anthropic from '@anthropic-ai/sdk';
import type { ContentBlockParam, Message, MessageParam, RawMessageStreamEvent, Tool } from '@anthropic-ai/sdk/resources/messages/messages';
import { finishTable, sdkClient, type Answer } from './adapter.js';
import { SDK_TIMEOUT_MS, previousCallId } from './types.js';
import type { ChatOptions, NormalizedMessage, NormalizedResult, ProtocolClient, ToolSpec } from './types.js';

/** Anthropic requires max_tokens; the mock answers a few tokens whatever it is. */
const MAX_TOKENS = 256;

/** The SDK pointed at the gateway (it appends /v1/messages itself), no retries. */
export function anthropicSdk(gatewayUrl: string): Anthropic {
  return new Anthropic({ baseURL: gatewayUrl, apiKey: 'sk-ant-test', maxRetries: 0, timeout: SDK_TIMEOUT_MS });
}

function toAnthropicMessages(messages: readonly NormalizedMessage[]): MessageParam[] {
  const out: MessageParam[] = [];
  messages.forEach((m, i) => {
    if (m.role === 'user') out.push({ role: 'user', content: m.text });
    else if (m.role === 'assistant') {
      const content: ContentBlockParam[] = [];
      if (m.text !== undefined && m.text !== '') content.push({ type: 'text', text: m.text });
      (m.toolCalls ?? []).forEach((c, j) => content.push({ type: 'tool_use', id: c.id ?? `toolu_${i}_${j}`, name: c.name, input: c.arguments }));
      out.push({ role: 'assistant', content });
    } else {
      out.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: m.toolCallId ?? previousCallId(messages, i, 'toolu'), content: m.content }] });
    }
  });
  return out;
}

function toAnthropicTools(tools: readonly ToolSpec[] | undefined): Tool[] | undefined {
  return tools?.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters as Tool['input_schema'] }));
}

/** The Messages request of a chat, but for `stream`, which each send sets. */
function requestOf(opts: ChatOptions) {
  return {
    model: opts.model,
    max_tokens: MAX_TOKENS,
    messages: toAnthropicMessages(opts.messages),
    ...(opts.system !== undefined ? { system: opts.system } : {}),
    ...(opts.tools !== undefined ? { tools: toAnthropicTools(opts.tools) } : {}),
  };
}

const finishOf = finishTable('anthropic', {
  stop: ['end_turn', 'stop_sequence'],
  length: ['max_tokens'],
  tool_calls: ['tool_use'],
  content_filter: ['refusal'],
});

function fromMessage(m: Message, answer: Answer): NormalizedResult {
  for (const block of m.content) {
    if (block.type === 'text') answer.text += block.text;
    else if (block.type === 'tool_use') answer.call({ id: block.id, name: block.name, arguments: block.input });
  }
  return answer.result(finishOf(m.stop_reason), {
    input: m.usage.input_tokens,
    output: m.usage.output_tokens,
    cacheRead: m.usage.cache_read_input_tokens ?? 0,
  });
}

async function fromStream(stream: AsyncIterable<RawMessageStreamEvent>, answer: Answer): Promise<NormalizedResult> {
  let stop: string | null = null;
  let stopped = false;
  const usage = { input: -1, output: -1, cacheRead: 0 };
  for await (const event of stream) {
    switch (event.type) {
      case 'message_start':
        usage.input = event.message.usage.input_tokens;
        usage.output = event.message.usage.output_tokens;
        usage.cacheRead = event.message.usage.cache_read_input_tokens ?? 0;
        break;
      case 'content_block_start':
        if (event.content_block.type === 'tool_use') answer.openCall(event.index, event.content_block.id, event.content_block.name);
        break;
      case 'content_block_delta':
        if (event.delta.type === 'text_delta') answer.delta(event.delta.text);
        else if (event.delta.type === 'input_json_delta') answer.callDelta(event.index, event.delta.partial_json);
        break;
      case 'message_delta':
        stop = event.delta.stop_reason;
        // message_delta's counts are cumulative; input fields appear there only sometimes.
        usage.output = event.usage.output_tokens;
        if (event.usage.input_tokens != null) usage.input = event.usage.input_tokens;
        if (event.usage.cache_read_input_tokens != null) usage.cacheRead = event.usage.cache_read_input_tokens;
        break;
      case 'message_stop':
        stopped = true;
        break;
      default:
        break;
    }
  }
  if (!stopped) throw new Error('anthropic adapter: the stream ended without message_stop');
  if (usage.input < 0) throw new Error('anthropic adapter: the stream had no message_start');
  return answer.result(finishOf(stop), usage);
}

export function anthropicClient(gatewayUrl: string): ProtocolClient {
  const sdk = anthropicSdk(gatewayUrl);
  return sdkClient('anthropic', requestOf, {
    whole: async (request, answer) => fromMessage(await sdk.messages.create({ ...request, stream: false }), answer),
    streamed: async (request, answer) => fromStream(await sdk.messages.create({ ...request, stream: true }), answer),
  });
}
