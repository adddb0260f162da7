// One call through a vendor's SDK with request fields in that protocol's own shape (a
// structured-output format, reasoning settings, cache markers, a tool choice...), for tests
// of the settings beyond the normalized conversation of the adapters beside this file. The
// answer is read back as text and tool calls, from a whole answer or from the SDK's stream.
import { ConverseCommand, ConverseStreamCommand, type ConverseCommandInput } from '@aws-sdk/client-bedrock-runtime';
import type { ProtocolName } from '../../../src/shared/model/types.js';
import { anthropicSdk } from './anthropic.js';
import { bedrockSdk } from './bedrock.js';
import { geminiSdk } from './gemini.js';
import { ollamaSdk } from './ollama.js';
import { openaiSdk } from './openai.js';

export interface NativeCall {
  model: string;
  stream: boolean;
  /** The user's prompt (one user turn). */
  prompt: string;
  /**
   * Request fields in the protocol's own shape, merged into the SDK call: the body for openai,
   * responses, anthropic and ollama; Converse input fields for bedrock; `config` fields for
   * gemini (the SDK writes them into generationConfig, tools, toolConfig, systemInstruction).
   * A `system` or `messages` here replaces the default one-turn prompt.
   */
  fields?: Record<string, unknown>;
}

export interface NativeAnswer {
  text: string;
  toolCalls: Array<{ name: string; arguments: unknown }>;
}

type Caller = (gatewayUrl: string, call: NativeCall) => Promise<NativeAnswer>;

function args(text: string): unknown {
  return text === '' ? {} : (JSON.parse(text) as unknown);
}

const openai: Caller = async (url, c) => {
  const sdk = openaiSdk(url);
  const body = { model: c.model, messages: [{ role: 'user', content: c.prompt }], ...c.fields } as never;
  if (!c.stream) {
    const r = (await sdk.chat.completions.create({ ...(body as object), stream: false } as never)) as any;
    const m = r.choices[0].message;
    return { text: m.content ?? '', toolCalls: (m.tool_calls ?? []).map((t: any) => ({ name: t.function.name, arguments: args(t.function.arguments) })) };
  }
  let text = '';
  const tools: Array<{ name: string; args: string }> = [];
  for await (const chunk of (await sdk.chat.completions.create({ ...(body as object), stream: true } as never)) as any) {
    const d = chunk.choices[0]?.delta;
    if (d === undefined) continue;
    if (typeof d.content === 'string') text += d.content;
    for (const t of d.tool_calls ?? []) {
      const acc = (tools[t.index] ??= { name: '', args: '' });
      acc.name += t.function?.name ?? '';
      acc.args += t.function?.arguments ?? '';
    }
  }
  return { text, toolCalls: tools.map((t) => ({ name: t.name, arguments: args(t.args) })) };
};

const responses: Caller = async (url, c) => {
  const sdk = openaiSdk(url);
  const body = { model: c.model, input: c.prompt, ...c.fields };
  if (!c.stream) {
    const r = (await sdk.responses.create({ ...body, stream: false } as never)) as any;
    const calls = r.output.filter((o: any) => o.type === 'function_call').map((o: any) => ({ name: o.name, arguments: args(o.arguments) }));
    return { text: r.output_text ?? '', toolCalls: calls };
  }
  let text = '';
  const calls: NativeAnswer['toolCalls'] = [];
  for await (const e of (await sdk.responses.create({ ...body, stream: true } as never)) as any) {
    if (e.type === 'response.output_text.delta') text += e.delta;
    else if (e.type === 'response.output_item.done' && e.item.type === 'function_call') calls.push({ name: e.item.name, arguments: args(e.item.arguments) });
  }
  return { text, toolCalls: calls };
};

const anthropic: Caller = async (url, c) => {
  const sdk = anthropicSdk(url);
  const body = { model: c.model, max_tokens: 4096, messages: [{ role: 'user', content: c.prompt }], ...c.fields };
  if (!c.stream) {
    const r = (await sdk.messages.create({ ...body, stream: false } as never)) as any;
    return {
      text: r.content
        .filter((b: any) => b.type === 'text')
        .map((b: any) => b.text)
        .join(''),
      toolCalls: r.content.filter((b: any) => b.type === 'tool_use').map((b: any) => ({ name: b.name, arguments: b.input })),
    };
  }
  let text = '';
  const tools = new Map<number, { name: string; args: string }>();
  for await (const e of (await sdk.messages.create({ ...body, stream: true } as never)) as any) {
    if (e.type === 'content_block_start' && e.content_block.type === 'tool_use') tools.set(e.index, { name: e.content_block.name, args: '' });
    else if (e.type === 'content_block_delta' && e.delta.type === 'text_delta') text += e.delta.text;
    else if (e.type === 'content_block_delta' && e.delta.type === 'input_json_delta') tools.get(e.index)!.args += e.delta.partial_json;
  }
  return { text, toolCalls: [...tools.values()].map((t) => ({ name: t.name, arguments: args(t.args) })) };
};

const gemini: Caller = async (url, c) => {
  const ai = geminiSdk(url);
  const params = { model: c.model, contents: [{ role: 'user', parts: [{ text: c.prompt }] }], config: { ...c.fields } };
  const read = (r: any, into: NativeAnswer): void => {
    for (const p of r.candidates?.[0]?.content?.parts ?? []) {
      if (typeof p.text === 'string' && p.thought !== true) into.text += p.text;
      if (p.functionCall !== undefined) into.toolCalls.push({ name: p.functionCall.name, arguments: p.functionCall.args ?? {} });
    }
  };
  const answer: NativeAnswer = { text: '', toolCalls: [] };
  if (!c.stream) read(await ai.models.generateContent(params as never), answer);
  else for await (const r of await ai.models.generateContentStream(params as never)) read(r, answer);
  return answer;
};

const bedrock: Caller = async (url, c) => {
  const sdk = bedrockSdk(url);
  const input = { modelId: c.model, messages: [{ role: 'user', content: [{ text: c.prompt }] }], ...c.fields } as ConverseCommandInput;
  if (!c.stream) {
    const r = await sdk.send(new ConverseCommand(input));
    const content = r.output?.message?.content ?? [];
    return {
      text: content.map((b) => b.text ?? '').join(''),
      toolCalls: content.filter((b) => b.toolUse !== undefined).map((b) => ({ name: b.toolUse!.name!, arguments: b.toolUse!.input })),
    };
  }
  const out = await sdk.send(new ConverseStreamCommand(input));
  let text = '';
  const tools = new Map<number, { name: string; args: string }>();
  for await (const e of out.stream!) {
    if (e.contentBlockStart?.start?.toolUse !== undefined)
      tools.set(e.contentBlockStart.contentBlockIndex!, { name: e.contentBlockStart.start.toolUse.name!, args: '' });
    const d = e.contentBlockDelta;
    if (d?.delta?.text !== undefined) text += d.delta.text;
    if (d?.delta?.toolUse?.input !== undefined) tools.get(d.contentBlockIndex!)!.args += d.delta.toolUse.input;
  }
  return { text, toolCalls: [...tools.values()].map((t) => ({ name: t.name, arguments: args(t.args) })) };
};

const ollama: Caller = async (url, c) => {
  const sdk = ollamaSdk(url);
  const body = { model: c.model, messages: [{ role: 'user', content: c.prompt }], ...c.fields };
  const answer: NativeAnswer = { text: '', toolCalls: [] };
  const read = (r: any): void => {
    answer.text += r.message?.content ?? '';
    for (const t of r.message?.tool_calls ?? []) answer.toolCalls.push({ name: t.function.name, arguments: t.function.arguments });
  };
  if (!c.stream) read(await sdk.chat({ ...body, stream: false } as never));
  else for await (const r of (await sdk.chat({ ...body, stream: true } as never)) as any) read(r);
  return answer;
};

const CALLERS: Readonly<Record<ProtocolName, Caller>> = { openai, responses, anthropic, gemini, bedrock, ollama };

export function nativeCall(protocol: ProtocolName, gatewayUrl: string, call: NativeCall): Promise<NativeAnswer> {
  return CALLERS[protocol](gatewayUrl, call);
}
