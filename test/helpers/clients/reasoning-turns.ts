// One assistant turn with reasoning through each vendor's SDK, read in the caller protocol's
// own fields (the reasoning text, the usage details), and the next request's history built from
// it the way that protocol's clients build it: the assistant turn echoed as the SDK handed it
// (a stream accumulated the way the SDK's helpers do), then the tool result. For Chat
// Completions and Ollama also the way frameworks do it that keep only the content and the tool
// calls of a turn (LangChain's ChatOpenAI drops reasoning_content). The tests of reasoning
// output and signed state use it against the gateway and against the mock alone.
import type OpenAI from 'openai';
import type { ChatCompletionChunk, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ResponseInputItem, ResponseOutputItem } from 'openai/resources/responses/responses';
import type Anthropic from '@anthropic-ai/sdk';
import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages/messages';
import type { Content, GenerateContentResponse, GoogleGenAI } from '@google/genai';
import {
  ConverseCommand,
  ConverseStreamCommand,
  type BedrockRuntimeClient,
  type ContentBlock,
  type Message as BedrockMessage,
  type TokenUsage,
} from '@aws-sdk/client-bedrock-runtime';
import type { Ollama, Message as OllamaMessage, ToolCall as OllamaToolCall } from 'ollama';
import type { ProtocolName } from '../../../src/shared/model/types.js';
import { openaiSdk } from './openai.js';
import { anthropicSdk } from './anthropic.js';
import { geminiSdk } from './gemini.js';
import { bedrockSdk } from './bedrock.js';
import { ollamaSdk } from './ollama.js';
import { WEATHER_RESULT, WEATHER_TOOL } from './index.js';

interface TurnUsage {
  /** Uncached input (protocols whose prompt count includes cached tokens are split). */
  input: number;
  output: number;
  cacheRead: number;
  cacheCreation: number;
  /** The reasoning tokens the protocol reports apart (0 where it has no field). */
  reasoning: number;
}

interface ReasoningTurn {
  /** The reasoning text, as the caller's protocol shows it (its own field). */
  reasoning: string;
  text: string;
  toolCalls: Array<{ id?: string; name: string }>;
  usage: TurnUsage;
  /** The whole turn as the SDK handed it, and the tool result after it, as the next request's history. */
  echo: unknown[];
  /** Chat Completions, Ollama: only content and tool calls kept (frameworks'); else the same as echo. */
  echoBare: unknown[];
}

interface TurnOptions {
  model: string;
  stream: boolean;
  prompt: string;
  tools: boolean;
  /** The history before this turn (a previous turn's echo); the prompt opens it when absent. */
  history?: unknown[];
}

export type ReasoningClient = (opts: TurnOptions) => Promise<ReasoningTurn>;

/** The reasoning, the answer text and the tool calls of a turn, as they are read from the SDK's answer. */
class TurnParts {
  reasoning = '';
  text = '';
  readonly toolCalls: Array<{ id?: string; name: string }> = [];

  /** The turn with its usage and the next request's history (`echoBare` where frameworks keep less). */
  turn(usage: TurnUsage, echo: unknown[], echoBare: unknown[] = echo): ReasoningTurn {
    return { reasoning: this.reasoning, text: this.text, toolCalls: this.toolCalls, usage, echo, echoBare };
  }
}

/** A protocol's reasoning client: its SDK made once for `url`, then one turn per call. */
function turnsWith<S>(sdkFor: (url: string) => S, turn: (sdk: S, o: TurnOptions) => Promise<ReasoningTurn>): (url: string) => ReasoningClient {
  return (url) => {
    const sdk = sdkFor(url);
    return (o) => turn(sdk, o);
  };
}

const MAX_TOKENS = 256;

// ------------------------------------------------------------------------------- openai chat

async function openaiTurn(sdk: OpenAI, o: TurnOptions): Promise<ReasoningTurn> {
  const messages = (o.history ?? [{ role: 'user', content: o.prompt }]) as ChatCompletionMessageParam[];
  const tools = o.tools
    ? [{ type: 'function' as const, function: { name: WEATHER_TOOL.name, description: WEATHER_TOOL.description, parameters: WEATHER_TOOL.parameters } }]
    : undefined;
  let msg: Record<string, any>;
  let usage: Record<string, any> | null | undefined;
  if (!o.stream) {
    const c = await sdk.chat.completions.create({ model: o.model, messages, tools });
    msg = c.choices[0]!.message as Record<string, any>;
    usage = c.usage;
  } else {
    const chunks = await sdk.chat.completions.create({ model: o.model, messages, tools, stream: true, stream_options: { include_usage: true } });
    msg = { role: 'assistant', content: '' };
    const calls: Array<Record<string, any>> = [];
    for await (const chunk of chunks as AsyncIterable<ChatCompletionChunk>) {
      if (chunk.usage != null) usage = chunk.usage;
      const delta = chunk.choices[0]?.delta as Record<string, any> | undefined;
      if (delta === undefined) continue;
      if (typeof delta.content === 'string') msg.content += delta.content;
      if (typeof delta.reasoning_content === 'string') msg.reasoning_content = (msg.reasoning_content ?? '') + delta.reasoning_content;
      if (Array.isArray(delta.thinking_blocks)) msg.thinking_blocks = [...(msg.thinking_blocks ?? []), ...delta.thinking_blocks];
      for (const tc of delta.tool_calls ?? []) {
        const acc = (calls[tc.index] ??= { id: '', type: 'function', function: { name: '', arguments: '' } });
        if (tc.id) acc.id = tc.id;
        if (tc.function?.name) acc.function.name += tc.function.name;
        if (tc.function?.arguments) acc.function.arguments += tc.function.arguments;
      }
    }
    if (calls.length > 0) msg.tool_calls = calls;
    if (msg.content === '') msg.content = null;
  }
  const toolCalls = (msg.tool_calls ?? []).map((c: Record<string, any>) => ({ id: c.id as string, name: c.function.name as string }));
  const result = toolCalls.length > 0 ? [{ role: 'tool', tool_call_id: toolCalls[0].id, content: WEATHER_RESULT }] : [];
  const bare = { role: 'assistant', content: msg.content ?? null, ...(msg.tool_calls !== undefined ? { tool_calls: msg.tool_calls } : {}) };
  const u = usage ?? {};
  const cached = u.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    reasoning: msg.reasoning_content ?? '',
    text: msg.content ?? '',
    toolCalls,
    usage: {
      input: (u.prompt_tokens ?? 0) - cached,
      output: u.completion_tokens ?? 0,
      cacheRead: cached,
      cacheCreation: 0,
      reasoning: u.completion_tokens_details?.reasoning_tokens ?? 0,
    },
    echo: [...messages, msg, ...result],
    echoBare: [...messages, bare, ...result],
  };
}

// ------------------------------------------------------------------------------- responses

async function responsesTurn(sdk: OpenAI, o: TurnOptions): Promise<ReasoningTurn> {
  const input = (o.history ?? [{ role: 'user', content: o.prompt }]) as ResponseInputItem[];
  const tools = o.tools
    ? [{ type: 'function' as const, name: WEATHER_TOOL.name, description: WEATHER_TOOL.description, parameters: WEATHER_TOOL.parameters, strict: false }]
    : undefined;
  const response = o.stream
    ? await sdk.responses.stream({ model: o.model, input, tools }).finalResponse()
    : await sdk.responses.create({ model: o.model, input, tools });
  const output = response.output as ResponseOutputItem[];
  const parts = new TurnParts();
  for (const item of output) {
    if (item.type === 'reasoning') {
      for (const s of item.summary) parts.reasoning += s.text;
    } else if (item.type === 'message') {
      for (const c of item.content) if (c.type === 'output_text') parts.text += c.text;
    } else if (item.type === 'function_call') {
      parts.toolCalls.push({ id: item.call_id, name: item.name });
    }
  }
  const result = parts.toolCalls.length > 0 ? [{ type: 'function_call_output', call_id: parts.toolCalls[0]!.id, output: WEATHER_RESULT }] : [];
  const u = response.usage;
  const cached = u?.input_tokens_details.cached_tokens ?? 0;
  // Output items go back as input items (what the Agents SDK and the docs' loops do).
  const echo = [...input, ...output, ...result];
  return parts.turn(
    {
      input: (u?.input_tokens ?? 0) - cached,
      output: u?.output_tokens ?? 0,
      cacheRead: cached,
      cacheCreation: 0,
      reasoning: u?.output_tokens_details.reasoning_tokens ?? 0,
    },
    echo,
  );
}

// ------------------------------------------------------------------------------- anthropic

async function anthropicTurn(sdk: Anthropic, o: TurnOptions): Promise<ReasoningTurn> {
  const messages = (o.history ?? [{ role: 'user', content: o.prompt }]) as MessageParam[];
  const tools = o.tools
    ? [{ name: WEATHER_TOOL.name, description: WEATHER_TOOL.description, input_schema: WEATHER_TOOL.parameters as { type: 'object' } }]
    : undefined;
  const params = { model: o.model, max_tokens: MAX_TOKENS, messages, ...(tools !== undefined ? { tools } : {}) };
  const m = o.stream ? await sdk.messages.stream(params).finalMessage() : await sdk.messages.create(params);
  const parts = new TurnParts();
  for (const b of m.content) {
    if (b.type === 'thinking') parts.reasoning += b.thinking;
    else if (b.type === 'text') parts.text += b.text;
    else if (b.type === 'tool_use') parts.toolCalls.push({ id: b.id, name: b.name });
  }
  const result: MessageParam[] =
    parts.toolCalls.length > 0 ? [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: parts.toolCalls[0]!.id!, content: WEATHER_RESULT }] }] : [];
  const echo = [...messages, { role: 'assistant', content: m.content as ContentBlockParam[] }, ...result];
  const u = m.usage;
  return parts.turn(
    {
      input: u.input_tokens,
      output: u.output_tokens,
      cacheRead: u.cache_read_input_tokens ?? 0,
      cacheCreation: u.cache_creation_input_tokens ?? 0,
      reasoning: 0,
    },
    echo,
  );
}

// ------------------------------------------------------------------------------- gemini

async function geminiTurn(sdk: GoogleGenAI, o: TurnOptions): Promise<ReasoningTurn> {
  const contents = (o.history ?? [{ role: 'user', parts: [{ text: o.prompt }] }]) as Content[];
  const config = o.tools
    ? {
        tools: [{ functionDeclarations: [{ name: WEATHER_TOOL.name, description: WEATHER_TOOL.description, parametersJsonSchema: WEATHER_TOOL.parameters }] }],
      }
    : undefined;
  // As the SDK's chat history keeps them: each chunk's content, parts as they came.
  const model: Content[] = [];
  let last: GenerateContentResponse | undefined;
  if (o.stream) {
    for await (const chunk of await sdk.models.generateContentStream({ model: o.model, contents, config })) {
      const c = chunk.candidates?.[0]?.content;
      if (c !== undefined) model.push(c);
      if (chunk.usageMetadata !== undefined) last = chunk;
    }
  } else {
    last = await sdk.models.generateContent({ model: o.model, contents, config });
    const c = last.candidates?.[0]?.content;
    if (c !== undefined) model.push(c);
  }
  const parts = new TurnParts();
  for (const c of model) {
    for (const p of c.parts ?? []) {
      if (typeof p.text === 'string' && p.thought === true) parts.reasoning += p.text;
      else if (typeof p.text === 'string') parts.text += p.text;
      else if (p.functionCall !== undefined) parts.toolCalls.push({ id: p.functionCall.id, name: p.functionCall.name ?? '' });
    }
  }
  const call = parts.toolCalls[0];
  const result: Content[] =
    call === undefined
      ? []
      : [
          {
            role: 'user',
            parts: [{ functionResponse: { ...(call.id !== undefined ? { id: call.id } : {}), name: call.name, response: { content: WEATHER_RESULT } } }],
          },
        ];
  const u = last?.usageMetadata ?? {};
  const cached = u.cachedContentTokenCount ?? 0;
  const thoughts = u.thoughtsTokenCount ?? 0;
  const echo = [...contents, ...model, ...result];
  return parts.turn(
    {
      input: (u.promptTokenCount ?? 0) - cached,
      output: (u.candidatesTokenCount ?? 0) + thoughts,
      cacheRead: cached,
      cacheCreation: 0,
      reasoning: thoughts,
    },
    echo,
  );
}

// ------------------------------------------------------------------------------- bedrock

async function bedrockTurn(sdk: BedrockRuntimeClient, o: TurnOptions): Promise<ReasoningTurn> {
  const messages = (o.history ?? [{ role: 'user', content: [{ text: o.prompt }] }]) as BedrockMessage[];
  const toolConfig = o.tools
    ? { tools: [{ toolSpec: { name: WEATHER_TOOL.name, description: WEATHER_TOOL.description, inputSchema: { json: WEATHER_TOOL.parameters as never } } }] }
    : undefined;
  let message: BedrockMessage;
  let usage: TokenUsage | undefined;
  if (!o.stream) {
    const r = await sdk.send(new ConverseCommand({ modelId: o.model, messages, toolConfig }));
    message = r.output!.message!;
    usage = r.usage;
  } else {
    // What an app accumulating ConverseStream events keeps: each block by its index.
    const r = await sdk.send(new ConverseStreamCommand({ modelId: o.model, messages, toolConfig }));
    const blocks: Array<Record<string, any>> = [];
    for await (const e of r.stream!) {
      const start = e.contentBlockStart;
      if (start?.start?.toolUse !== undefined) blocks[start.contentBlockIndex!] = { toolUse: { ...start.start.toolUse, input: '' } };
      const d = e.contentBlockDelta;
      if (d?.delta !== undefined) {
        const i = d.contentBlockIndex!;
        if (d.delta.text !== undefined) (blocks[i] ??= { text: '' }).text += d.delta.text;
        if (d.delta.toolUse?.input !== undefined) blocks[i]!.toolUse.input += d.delta.toolUse.input;
        const rc = d.delta.reasoningContent;
        if (rc !== undefined) {
          const b = (blocks[i] ??= { reasoningContent: {} }).reasoningContent;
          if (rc.text !== undefined) (b.reasoningText ??= { text: '' }).text += rc.text;
          if (rc.signature !== undefined) (b.reasoningText ??= { text: '' }).signature = rc.signature;
          if (rc.redactedContent !== undefined) b.redactedContent = rc.redactedContent;
        }
      }
      if (e.metadata?.usage !== undefined) usage = e.metadata.usage;
    }
    for (const b of blocks) if (b?.toolUse !== undefined) b.toolUse.input = b.toolUse.input === '' ? {} : JSON.parse(b.toolUse.input);
    message = { role: 'assistant', content: blocks.filter((b) => b !== undefined) as ContentBlock[] };
  }
  const parts = new TurnParts();
  for (const b of message.content ?? []) {
    if (b.reasoningContent?.reasoningText !== undefined) parts.reasoning += b.reasoningContent.reasoningText.text ?? '';
    else if (b.text !== undefined) parts.text += b.text;
    else if (b.toolUse !== undefined) parts.toolCalls.push({ id: b.toolUse.toolUseId, name: b.toolUse.name ?? '' });
  }
  const result: BedrockMessage[] =
    parts.toolCalls.length > 0 ? [{ role: 'user', content: [{ toolResult: { toolUseId: parts.toolCalls[0]!.id, content: [{ text: WEATHER_RESULT }] } }] }] : [];
  const echo = [...messages, message, ...result];
  return parts.turn(
    {
      input: usage?.inputTokens ?? 0,
      output: usage?.outputTokens ?? 0,
      cacheRead: usage?.cacheReadInputTokens ?? 0,
      cacheCreation: usage?.cacheWriteInputTokens ?? 0,
      reasoning: 0,
    },
    echo,
  );
}

// ------------------------------------------------------------------------------- ollama

async function ollamaTurn(sdk: Ollama, o: TurnOptions): Promise<ReasoningTurn> {
  const messages = (o.history ?? [{ role: 'user', content: o.prompt }]) as OllamaMessage[];
  const tools = o.tools
    ? [{ type: 'function', function: { name: WEATHER_TOOL.name, description: WEATHER_TOOL.description, parameters: WEATHER_TOOL.parameters as never } }]
    : undefined;
  const msg: OllamaMessage = { role: 'assistant', content: '' };
  let counts = { prompt: 0, eval: 0 };
  if (!o.stream) {
    const r = await sdk.chat({ model: o.model, messages, tools, stream: false });
    Object.assign(msg, r.message);
    counts = { prompt: r.prompt_eval_count, eval: r.eval_count };
  } else {
    const calls: OllamaToolCall[] = [];
    for await (const part of await sdk.chat({ model: o.model, messages, tools, stream: true })) {
      msg.content += part.message.content;
      if (part.message.thinking !== undefined) msg.thinking = (msg.thinking ?? '') + part.message.thinking;
      calls.push(...(part.message.tool_calls ?? []));
      if (part.done) counts = { prompt: part.prompt_eval_count, eval: part.eval_count };
    }
    if (calls.length > 0) msg.tool_calls = calls;
  }
  const toolCalls = (msg.tool_calls ?? []).map((c) => ({ id: (c as { id?: string }).id, name: c.function.name }));
  const call = toolCalls[0];
  const result =
    call === undefined ? [] : [{ role: 'tool', tool_name: call.name, content: WEATHER_RESULT, ...(call.id !== undefined ? { tool_call_id: call.id } : {}) }];
  const bare: Record<string, unknown> = { role: 'assistant', content: msg.content };
  if (msg.tool_calls !== undefined) bare.tool_calls = msg.tool_calls;
  return {
    reasoning: msg.thinking ?? '',
    text: msg.content,
    toolCalls,
    usage: { input: counts.prompt, output: counts.eval, cacheRead: 0, cacheCreation: 0, reasoning: 0 },
    echo: [...messages, msg, ...result],
    echoBare: [...messages, bare, ...result],
  };
}

const FACTORIES: Readonly<Record<ProtocolName, (url: string) => ReasoningClient>> = {
  openai: turnsWith(openaiSdk, openaiTurn),
  responses: turnsWith(openaiSdk, responsesTurn),
  anthropic: turnsWith(anthropicSdk, anthropicTurn),
  gemini: turnsWith(geminiSdk, geminiTurn),
  bedrock: turnsWith(bedrockSdk, bedrockTurn),
  ollama: turnsWith(ollamaSdk, ollamaTurn),
};

/** The reasoning-turn client of one protocol, talking to `url` (the gateway, or the mock). */
export function reasoningClientFor(protocol: ProtocolName, url: string): ReasoningClient {
  return FACTORIES[protocol](url);
}
