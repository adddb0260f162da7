// Gemini generateContent through `@google/genai` (ai.models.generateContent and
// generateContentStream, which posts to :streamGenerateContent?alt=sse).
import { GoogleGenAI, type Content, type GenerateContentResponse, type Tool } from '@google/genai';
import {
  SDK_TIMEOUT_MS,
  finishWithTools,
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

/** The SDK pointed at the gateway (it appends /v1beta/models/...), no retries. */
export function geminiSdk(gatewayUrl: string): GoogleGenAI {
  return new GoogleGenAI({ apiKey: 'gemini-test-key', httpOptions: { baseUrl: gatewayUrl, timeout: SDK_TIMEOUT_MS } });
}

function toGeminiContents(messages: readonly NormalizedMessage[]): Content[] {
  return messages.map((m): Content => {
    if (m.role === 'user') return { role: 'user', parts: [{ text: m.text }] };
    if (m.role === 'assistant') {
      const parts: NonNullable<Content['parts']> = [];
      if (m.text !== undefined && m.text !== '') parts.push({ text: m.text });
      for (const c of m.toolCalls ?? []) {
        parts.push({ functionCall: { ...(c.id !== undefined ? { id: c.id } : {}), name: c.name, args: c.arguments as Record<string, unknown> } });
      }
      return { role: 'model', parts };
    }
    return {
      role: 'user',
      parts: [{ functionResponse: { ...(m.toolCallId !== undefined ? { id: m.toolCallId } : {}), name: m.name, response: { result: m.content } } }],
    };
  });
}

function toGeminiTools(tools: readonly ToolSpec[] | undefined): Tool[] | undefined {
  if (tools === undefined) return undefined;
  return [{ functionDeclarations: tools.map((t) => ({ name: t.name, description: t.description, parametersJsonSchema: t.parameters })) }];
}

function finishOf(reason: string | undefined): NormalizedFinish {
  switch (reason) {
    case 'STOP':
      return 'stop';
    case 'MAX_TOKENS':
      return 'length';
    case 'SAFETY':
    case 'RECITATION':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
      return 'content_filter';
    default:
      return unknownFinish('gemini', reason);
  }
}

function usageOf(r: GenerateContentResponse | null): NormalizedUsage {
  const u = r?.usageMetadata;
  if (u === undefined) throw new Error('gemini adapter: no usageMetadata');
  const cached = u.cachedContentTokenCount ?? 0;
  return { input: (u.promptTokenCount ?? 0) - cached, output: u.candidatesTokenCount ?? 0, cacheRead: cached };
}

/** Text and tool calls of one response (or stream chunk); thought parts are not answer text. */
function partsOf(r: GenerateContentResponse): { text: string; toolCalls: ToolCallOut[] } {
  let text = '';
  const toolCalls: ToolCallOut[] = [];
  for (const part of r.candidates?.[0]?.content?.parts ?? []) {
    if (typeof part.text === 'string' && part.thought !== true) text += part.text;
    if (part.functionCall !== undefined) {
      toolCalls.push({
        ...(part.functionCall.id ? { id: part.functionCall.id } : {}),
        name: part.functionCall.name ?? '',
        arguments: part.functionCall.args ?? {},
      });
    }
  }
  return { text, toolCalls };
}

function fromResponse(r: GenerateContentResponse): NormalizedResult {
  const { text, toolCalls } = partsOf(r);
  return { text, toolCalls, finish: finishWithTools(finishOf(r.candidates?.[0]?.finishReason), toolCalls), usage: usageOf(r), chunks: 0 };
}

async function fromStream(stream: AsyncIterable<GenerateContentResponse>, onChunk?: () => void): Promise<NormalizedResult> {
  let text = '';
  let chunks = 0;
  let finish: string | undefined;
  let withUsage: GenerateContentResponse | null = null;
  const toolCalls: ToolCallOut[] = [];
  for await (const chunk of stream) {
    const parts = partsOf(chunk);
    if (parts.text !== '' || parts.toolCalls.length > 0) {
      text += parts.text;
      toolCalls.push(...parts.toolCalls);
      chunks++;
      onChunk?.();
    }
    const reason = chunk.candidates?.[0]?.finishReason;
    if (reason !== undefined) finish = reason;
    if (chunk.usageMetadata !== undefined) withUsage = chunk;
  }
  if (finish === undefined) throw new Error('gemini adapter: the stream ended without a finishReason');
  return { text, toolCalls, finish: finishWithTools(finishOf(finish), toolCalls), usage: usageOf(withUsage), chunks };
}

export function geminiClient(gatewayUrl: string): ProtocolClient {
  const ai = geminiSdk(gatewayUrl);
  return {
    name: 'gemini',
    async chat(opts: ChatOptions): Promise<NormalizedResult> {
      const params = {
        model: opts.model,
        contents: toGeminiContents(opts.messages),
        config: {
          ...(opts.system !== undefined ? { systemInstruction: opts.system } : {}),
          ...(opts.tools !== undefined ? { tools: toGeminiTools(opts.tools) } : {}),
        },
      };
      if (!opts.stream) return fromResponse(await ai.models.generateContent(params));
      return fromStream(await ai.models.generateContentStream(params), opts.onChunk);
    },
  };
}
