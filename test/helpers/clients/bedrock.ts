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
  type ToolCallOut,
  type ToolSpec,
} from './types.js';

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

function finishOf(reason: string | undefined): NormalizedFinish {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'max_tokens':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'content_filtered':
    case 'guardrail_intervened':
      return 'content_filter';
    default:
      return unknownFinish('bedrock', reason);
  }
}

function usageOf(u: TokenUsage | undefined): NormalizedUsage {
  if (u === undefined) throw new Error('bedrock adapter: no usage');
  return { input: u.inputTokens ?? 0, output: u.outputTokens ?? 0, cacheRead: u.cacheReadInputTokens ?? 0 };
}

function fromOutput(out: ConverseCommandOutput): NormalizedResult {
  let text = '';
  const toolCalls: ToolCallOut[] = [];
  for (const block of out.output?.message?.content ?? []) {
    if (block.text !== undefined) text += block.text;
    if (block.toolUse !== undefined) toolCalls.push({ id: block.toolUse.toolUseId, name: block.toolUse.name ?? '', arguments: block.toolUse.input });
  }
  return { text, toolCalls, finish: finishOf(out.stopReason), usage: usageOf(out.usage), chunks: 0 };
}

interface ToolAccumulator {
  id?: string;
  name: string;
  args: string;
}

async function fromStream(stream: AsyncIterable<ConverseStreamOutput>, onChunk?: () => void): Promise<NormalizedResult> {
  let text = '';
  let chunks = 0;
  let stop: string | undefined;
  let usage: TokenUsage | undefined;
  const tools = new Map<number, ToolAccumulator>();
  for await (const event of stream) {
    if (event.contentBlockStart?.start?.toolUse !== undefined) {
      const t = event.contentBlockStart.start.toolUse;
      tools.set(event.contentBlockStart.contentBlockIndex ?? 0, { id: t.toolUseId, name: t.name ?? '', args: '' });
    } else if (event.contentBlockDelta !== undefined) {
      const delta = event.contentBlockDelta.delta;
      if (delta?.text !== undefined) text += delta.text;
      else if (delta?.toolUse !== undefined) {
        const index = event.contentBlockDelta.contentBlockIndex ?? 0;
        const acc = tools.get(index);
        if (acc === undefined) throw new Error(`bedrock adapter: toolUse delta for unknown block ${index}`);
        acc.args += delta.toolUse.input ?? '';
      } else continue;
      chunks++;
      onChunk?.();
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
  const toolCalls = [...tools.entries()].sort((a, b) => a[0] - b[0]).map(([, t]) => ({ id: t.id, name: t.name, arguments: parseArguments(t.args) }));
  return { text, toolCalls, finish: finishOf(stop), usage: usageOf(usage), chunks };
}

export function bedrockClient(gatewayUrl: string): ProtocolClient {
  const sdk = bedrockSdk(gatewayUrl);
  return {
    name: 'bedrock',
    async chat(opts: ChatOptions): Promise<NormalizedResult> {
      const input = {
        modelId: opts.model,
        messages: toBedrockMessages(opts.messages),
        ...(opts.system !== undefined ? { system: [{ text: opts.system }] } : {}),
        ...(opts.tools !== undefined ? { toolConfig: { tools: toBedrockTools(opts.tools) } } : {}),
      };
      if (!opts.stream) return fromOutput(await sdk.send(new ConverseCommand(input)));
      const out = await sdk.send(new ConverseStreamCommand(input));
      if (out.stream === undefined) throw new Error('bedrock adapter: ConverseStream answered without a stream');
      return fromStream(out.stream, opts.onChunk);
    },
  };
}
