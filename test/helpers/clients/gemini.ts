// Gemini generateContent through `@google/genai` (ai.models.generateContent and
// generateContentStream, which posts to :streamGenerateContent?alt=sse).
import { GoogleGenAI, type Content, type GenerateContentResponse, type Tool } from '@google/genai';
import { finishTable, sdkClient, type Answer } from './adapter.js';
import { SDK_TIMEOUT_MS, finishWithTools } from './types.js';
import type { ChatOptions, NormalizedMessage, NormalizedResult, NormalizedUsage, ProtocolClient, ToolCallOut, ToolSpec } from './types.js';

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

/** The generateContent parameters of a chat (generateContentStream takes the same). */
function paramsOf(opts: ChatOptions) {
  const config = {
    ...(opts.system !== undefined ? { systemInstruction: opts.system } : {}),
    ...(opts.tools !== undefined ? { tools: toGeminiTools(opts.tools) } : {}),
  };
  return { model: opts.model, contents: toGeminiContents(opts.messages), config };
}

const finishOf = finishTable('gemini', {
  stop: ['STOP'],
  length: ['MAX_TOKENS'],
  content_filter: ['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII'],
});

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

function fromResponse(r: GenerateContentResponse, answer: Answer): NormalizedResult {
  const { text, toolCalls } = partsOf(r);
  answer.text = text;
  answer.call(...toolCalls);
  return answer.result(finishWithTools(finishOf(r.candidates?.[0]?.finishReason), toolCalls), usageOf(r));
}

async function fromStream(stream: AsyncIterable<GenerateContentResponse>, answer: Answer): Promise<NormalizedResult> {
  let finish: string | undefined;
  let withUsage: GenerateContentResponse | null = null;
  for await (const chunk of stream) {
    const parts = partsOf(chunk);
    answer.content(parts.text, parts.toolCalls);
    const reason = chunk.candidates?.[0]?.finishReason;
    if (reason !== undefined) finish = reason;
    if (chunk.usageMetadata !== undefined) withUsage = chunk;
  }
  if (finish === undefined) throw new Error('gemini adapter: the stream ended without a finishReason');
  return answer.result(finishWithTools(finishOf(finish), answer.toolCalls), usageOf(withUsage));
}

export function geminiClient(gatewayUrl: string): ProtocolClient {
  const ai = geminiSdk(gatewayUrl);
  return sdkClient('gemini', paramsOf, {
    whole: async (params, answer) => fromResponse(await ai.models.generateContent(params), answer),
    streamed: async (params, answer) => fromStream(await ai.models.generateContentStream(params), answer),
  });
}
