// AWS Bedrock Converse through `@aws-sdk/client-bedrock-runtime` (ConverseCommand and
// ConverseStreamCommand, SigV4-signed with static test credentials). The gateway's ingress is
// HTTP/1.1, so the client uses NodeHttpHandler instead of the SDK's default HTTP/2 handler.
import {
  BedrockRuntimeClient,
  ConverseCommand,
  ConverseStreamCommand,
  type ContentBlock,
  type ConverseCommandOutput,
  type ConverseStreamOutput,
  type Message,
  type Tool,
  type TokenUsage,
  type ToolUseBlock,
} from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { finishTable, sdkClient, type Answer } from './adapter.js';
import { SDK_TIMEOUT_MS, previousCallId } from './types.js';
import type { ChatOptions, NormalizedMessage, NormalizedResult, NormalizedUsage, ProtocolClient, ToolSpec } from './types.js';

/** The SDK's JSON document type (tool inputs and schemas), named through the SDK itself. */
type DocumentType = NonNullable<ToolUseBlock['input']>;

/** The SDK pointed at the gateway: HTTP/1.1, static credentials, a single attempt. */
export function bedrockSdk(gatewayUrl: string): BedrockRuntimeClient {
  return new BedrockRuntimeClient({
    endpoint: gatewayUrl,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIDGATEWAYTEST', secretAccessKey: 'gateway-test-secret' },
    requestHandler: new NodeHttpHandler({ requestTimeout: SDK_TIMEOUT_MS }),
    maxAttempts: 1,
  });
}

function toBedrockMessages(messages: readonly NormalizedMessage[]): Message[] {
  return messages.map((m, i): Message => {
    if (m.role === 'user') return { role: 'user', content: [{ text: m.text }] };
    if (m.role === 'assistant') {
      const content: ContentBlock[] = [];
      if (m.text !== undefined && m.text !== '') content.push({ text: m.text });
      (m.toolCalls ?? []).forEach((c, j) =>
        content.push({ toolUse: { toolUseId: c.id ?? `tooluse_${i}_${j}`, name: c.name, input: c.arguments as DocumentType } }),
      );
      return { role: 'assistant', content };
    }
    return { role: 'user', content: [{ toolResult: { toolUseId: m.toolCallId ?? previousCallId(messages, i, 'tooluse'), content: [{ text: m.content }] } }] };
  });
}

function toBedrockTools(tools: readonly ToolSpec[]): Tool[] {
  return tools.map((t) => ({ toolSpec: { name: t.name, description: t.description, inputSchema: { json: t.parameters as DocumentType } } }));
}

/** The Converse input of a chat (ConverseStream takes the same). */
function inputOf(opts: ChatOptions) {
  return {
    modelId: opts.model,
    messages: toBedrockMessages(opts.messages),
    ...(opts.system !== undefined ? { system: [{ text: opts.system }] } : {}),
    ...(opts.tools !== undefined ? { toolConfig: { tools: toBedrockTools(opts.tools) } } : {}),
  };
}

const finishOf = finishTable('bedrock', {
  stop: ['end_turn', 'stop_sequence'],
  length: ['max_tokens'],
  tool_calls: ['tool_use'],
  content_filter: ['content_filtered', 'guardrail_intervened'],
});

function usageOf(u: TokenUsage | undefined): NormalizedUsage {
  if (u === undefined) throw new Error('bedrock adapter: no usage');
  return { input: u.inputTokens ?? 0, output: u.outputTokens ?? 0, cacheRead: u.cacheReadInputTokens ?? 0 };
}

function fromOutput(out: ConverseCommandOutput, answer: Answer): NormalizedResult {
  for (const block of out.output?.message?.content ?? []) {
    if (block.text !== undefined) answer.text += block.text;
    if (block.toolUse !== undefined) answer.call({ id: block.toolUse.toolUseId, name: block.toolUse.name ?? '', arguments: block.toolUse.input });
  }
  return answer.result(finishOf(out.stopReason), usageOf(out.usage));
}

async function fromStream(stream: AsyncIterable<ConverseStreamOutput>, answer: Answer): Promise<NormalizedResult> {
  let stop: string | undefined;
  let usage: TokenUsage | undefined;
  for await (const event of stream) {
    if (event.contentBlockStart?.start?.toolUse !== undefined) {
      const t = event.contentBlockStart.start.toolUse;
      answer.openCall(event.contentBlockStart.contentBlockIndex ?? 0, t.toolUseId, t.name ?? '');
    } else if (event.contentBlockDelta !== undefined) {
      const delta = event.contentBlockDelta.delta;
      if (delta?.text !== undefined) answer.delta(delta.text);
      else if (delta?.toolUse !== undefined) answer.callDelta(event.contentBlockDelta.contentBlockIndex ?? 0, delta.toolUse.input ?? '');
    } else if (event.messageStop !== undefined) stop = event.messageStop.stopReason;
    else if (event.metadata !== undefined) usage = event.metadata.usage;
    else {
      const failure =
        event.internalServerException ??
        event.modelStreamErrorException ??
        event.validationException ??
        event.throttlingException ??
        event.serviceUnavailableException;
      if (failure !== undefined) throw failure;
    }
  }
  if (stop === undefined) throw new Error('bedrock adapter: the stream ended without messageStop');
  return answer.result(finishOf(stop), usageOf(usage));
}

export function bedrockClient(gatewayUrl: string): ProtocolClient {
  const sdk = bedrockSdk(gatewayUrl);
  return sdkClient('bedrock', inputOf, {
    whole: async (input, answer) => fromOutput(await sdk.send(new ConverseCommand(input)), answer),
    async streamed(input, answer) {
      const out = await sdk.send(new ConverseStreamCommand(input));
      if (out.stream === undefined) throw new Error('bedrock adapter: ConverseStream answered without a stream');
      return fromStream(out.stream, answer);
    },
  });
}
