// The vendor-request corpus (test/fixtures/vendor-requests/<protocol>/*.json): loading a
// fixture, making its request for one target and mode (stream or not, in the protocol's own
// way: a body flag, or the path), and reading any protocol's answer, whole or streamed, into
// one comparable form (text, tool calls, finish, usage).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProtocolName } from '../../../src/shared/model/types.js';
import { decodeEventStream, parseNdjson, sseJson } from '../../mock/wire.js';

export interface Fixture {
  file: string;
  source: string;
  method: 'GET' | 'POST';
  /** `{model}` is the target; `{action}` the protocol's stream or non-stream path word. */
  path: string;
  headers?: Record<string, string>;
  body?: Record<string, unknown>;
  /** `json`: structured output (JSON mode or a schema), answered with JSON text on every lane. */
  expect: 'text' | 'json' | 'tool_call' | 'listing';
  /** The first declared tool, which the mock calls. */
  tool?: string;
  /** A setting no translation carries: answered by a same-protocol lane, refused by the others. */
  same_protocol_only?: string;
  /** Lanes that refuse it, with a word the refusal names (a Responses lane has no stop sequences). */
  refused_on?: Partial<Record<ProtocolName, string>>;
}

const CORPUS_DIR = join(process.cwd(), 'test', 'fixtures', 'vendor-requests');

export function loadFixtures(protocol: ProtocolName): Fixture[] {
  const dir = join(CORPUS_DIR, protocol);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => ({ file, ...(JSON.parse(readFileSync(join(dir, file), 'utf8')) as Omit<Fixture, 'file'>) }));
}

export interface WireRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** The fixture with its placeholders filled in and its stream mode set the protocol's way. */
export function requestOf(protocol: ProtocolName, fx: Fixture, model: string, stream: boolean): WireRequest {
  const action = protocol === 'gemini' ? (stream ? 'streamGenerateContent' : 'generateContent') : stream ? 'converse-stream' : 'converse';
  let path = fx.path.replace('{model}', encodeURIComponent(model)).replace('{action}', action);
  if (protocol === 'gemini' && stream) path += path.includes('?') ? '&alt=sse' : '?alt=sse';
  const headers: Record<string, string> = { ...(fx.headers ?? {}) };
  if (fx.body === undefined) return { method: fx.method, path, headers, body: undefined };
  const body: Record<string, unknown> = JSON.parse(JSON.stringify(fx.body).replaceAll('"{model}"', JSON.stringify(model)));
  if (protocol === 'openai' || protocol === 'responses' || protocol === 'anthropic' || protocol === 'ollama') body.stream = stream;
  // OpenAI reports usage in a stream only when asked (its documented way to get it).
  if (protocol === 'openai' && stream) body.stream_options = { include_usage: true };
  if (headers['content-type'] === undefined) headers['content-type'] = 'application/json';
  return { method: fx.method, path, headers, body: JSON.stringify(body) };
}

export interface ReadAnswer {
  text: string;
  toolCalls: Array<{ name: string; arguments: unknown }>;
  /** 'stop' | 'tool_calls' | 'length' | the native value when unknown. */
  finish: string;
  usage: { input: number; output: number };
  /** Content pieces seen (stream: more than one). */
  pieces: number;
}

const FINISH: Readonly<Record<string, string>> = {
  stop: 'stop',
  end_turn: 'stop',
  STOP: 'stop',
  completed: 'stop',
  stop_sequence: 'stop',
  tool_calls: 'tool_calls',
  tool_use: 'tool_calls',
  length: 'length',
  max_tokens: 'length',
  MAX_TOKENS: 'length',
};

/** Protocols whose finish does not say "tool": a tool call is seen in the content. */
function finishOf(native: string, toolCalls: number): string {
  const mapped = FINISH[native] ?? native;
  return toolCalls > 0 && mapped === 'stop' ? 'tool_calls' : mapped;
}

function empty(): ReadAnswer {
  return { text: '', toolCalls: [], finish: '', usage: { input: 0, output: 0 }, pieces: 0 };
}

/* eslint-disable @typescript-eslint/no-explicit-any */
export function readAnswer(protocol: ProtocolName, stream: boolean, bytes: Buffer): ReadAnswer {
  const text = bytes.toString('utf8');
  switch (protocol) {
    case 'openai':
      return stream ? openaiStream(sseJson(text)) : openaiWhole(JSON.parse(text));
    case 'responses':
      return stream ? responsesStream(sseJson(text)) : responsesWhole(JSON.parse(text));
    case 'anthropic':
      return stream ? anthropicStream(sseJson(text)) : anthropicWhole(JSON.parse(text));
    case 'gemini':
      return stream ? geminiStream(sseJson(text)) : geminiChunk(JSON.parse(text), empty());
    case 'bedrock':
      return stream ? bedrockStream(decodeEventStream(bytes)) : bedrockWhole(JSON.parse(text));
    case 'ollama':
      return stream ? ollamaStream(parseNdjson(text)) : ollamaLine(JSON.parse(text), empty());
  }
}

function openaiWhole(b: any): ReadAnswer {
  const m = b.choices[0].message;
  const toolCalls = (m.tool_calls ?? []).map((c: any) => ({ name: c.function.name, arguments: JSON.parse(c.function.arguments) }));
  return {
    text: m.content ?? '',
    toolCalls,
    finish: finishOf(b.choices[0].finish_reason, toolCalls.length),
    usage: { input: b.usage.prompt_tokens, output: b.usage.completion_tokens },
    pieces: 1,
  };
}

function openaiStream(chunks: any[]): ReadAnswer {
  const r = empty();
  const calls: Array<{ name: string; args: string }> = [];
  let native = '';
  for (const c of chunks) {
    if (c.usage) r.usage = { input: c.usage.prompt_tokens, output: c.usage.completion_tokens };
    const choice = c.choices?.[0];
    if (choice === undefined) continue;
    if (typeof choice.delta?.content === 'string' && choice.delta.content !== '') {
      r.text += choice.delta.content;
      r.pieces++;
    }
    for (const tc of choice.delta?.tool_calls ?? []) {
      calls[tc.index] ??= { name: '', args: '' };
      if (tc.function?.name) calls[tc.index]!.name = tc.function.name;
      if (tc.function?.arguments) calls[tc.index]!.args += tc.function.arguments;
      r.pieces++;
    }
    if (choice.finish_reason) native = choice.finish_reason;
  }
  r.toolCalls = calls.map((c) => ({ name: c.name, arguments: JSON.parse(c.args) }));
  r.finish = finishOf(native, r.toolCalls.length);
  return r;
}

function responsesWhole(b: any): ReadAnswer {
  const r = empty();
  for (const item of b.output ?? []) {
    if (item.type === 'message') for (const c of item.content ?? []) if (c.type === 'output_text') r.text += c.text;
    if (item.type === 'function_call') r.toolCalls.push({ name: item.name, arguments: JSON.parse(item.arguments) });
  }
  r.finish = finishOf(b.status === 'incomplete' ? 'length' : b.status, r.toolCalls.length);
  r.usage = { input: b.usage?.input_tokens ?? 0, output: b.usage?.output_tokens ?? 0 };
  r.pieces = 1;
  return r;
}

function responsesStream(events: any[]): ReadAnswer {
  let deltas = '';
  let pieces = 0;
  let done: any = null;
  for (const e of events) {
    if (e.type === 'response.output_text.delta') {
      deltas += e.delta;
      pieces++;
    }
    if (e.type === 'response.function_call_arguments.delta') pieces++;
    if (e.type === 'response.completed' || e.type === 'response.incomplete') done = e.response;
  }
  if (done === null) throw new Error(`no response.completed among ${events.length} events`);
  const r = responsesWhole(done);
  if (deltas !== r.text) throw new Error(`stream deltas "${deltas}" differ from the completed text "${r.text}"`);
  r.pieces = pieces;
  return r;
}

function anthropicWhole(b: any): ReadAnswer {
  const r = empty();
  for (const c of b.content) {
    if (c.type === 'text') r.text += c.text;
    if (c.type === 'tool_use') r.toolCalls.push({ name: c.name, arguments: c.input });
  }
  r.finish = finishOf(b.stop_reason, r.toolCalls.length);
  r.usage = { input: b.usage.input_tokens, output: b.usage.output_tokens };
  r.pieces = 1;
  return r;
}

function anthropicStream(events: any[]): ReadAnswer {
  const r = empty();
  const calls = new Map<number, { name: string; json: string }>();
  let native = '';
  for (const e of events) {
    if (e.type === 'message_start') r.usage.input = e.message.usage.input_tokens;
    if (e.type === 'content_block_start' && e.content_block.type === 'tool_use') calls.set(e.index, { name: e.content_block.name, json: '' });
    if (e.type === 'content_block_delta' && e.delta.type === 'text_delta') {
      r.text += e.delta.text;
      r.pieces++;
    }
    if (e.type === 'content_block_delta' && e.delta.type === 'input_json_delta') {
      calls.get(e.index)!.json += e.delta.partial_json;
      r.pieces++;
    }
    if (e.type === 'message_delta') {
      native = e.delta.stop_reason ?? native;
      r.usage.output = e.usage.output_tokens;
      // The final usage is cumulative: a translated stream learns the input count only at the end.
      if (typeof e.usage.input_tokens === 'number' && e.usage.input_tokens > 0) r.usage.input = e.usage.input_tokens;
    }
  }
  r.toolCalls = [...calls.values()].map((c) => ({ name: c.name, arguments: c.json === '' ? {} : JSON.parse(c.json) }));
  r.finish = finishOf(native, r.toolCalls.length);
  return r;
}

function geminiChunk(b: any, r: ReadAnswer): ReadAnswer {
  const cand = b.candidates?.[0];
  for (const p of cand?.content?.parts ?? []) {
    if (typeof p.text === 'string' && p.text !== '') {
      r.text += p.text;
      r.pieces++;
    }
    if (p.functionCall) {
      r.toolCalls.push({ name: p.functionCall.name, arguments: p.functionCall.args ?? {} });
      r.pieces++;
    }
  }
  if (cand?.finishReason) r.finish = finishOf(cand.finishReason, r.toolCalls.length);
  if (b.usageMetadata) r.usage = { input: b.usageMetadata.promptTokenCount ?? 0, output: b.usageMetadata.candidatesTokenCount ?? 0 };
  return r;
}

function geminiStream(chunks: any[]): ReadAnswer {
  const r = empty();
  for (const c of chunks) geminiChunk(c, r);
  if (r.toolCalls.length > 0 && r.finish === 'stop') r.finish = 'tool_calls';
  return r;
}

function bedrockWhole(b: any): ReadAnswer {
  const r = empty();
  for (const c of b.output.message.content) {
    if (typeof c.text === 'string') r.text += c.text;
    if (c.toolUse) r.toolCalls.push({ name: c.toolUse.name, arguments: c.toolUse.input });
  }
  r.finish = finishOf(b.stopReason, r.toolCalls.length);
  r.usage = { input: b.usage.inputTokens, output: b.usage.outputTokens };
  r.pieces = 1;
  return r;
}

function bedrockStream(events: Array<{ eventType: string; payload: any }>): ReadAnswer {
  const r = empty();
  const calls = new Map<number, { name: string; json: string }>();
  let native = '';
  for (const { eventType, payload } of events) {
    if (eventType === 'contentBlockStart' && payload.start?.toolUse) calls.set(payload.contentBlockIndex, { name: payload.start.toolUse.name, json: '' });
    if (eventType === 'contentBlockDelta' && typeof payload.delta?.text === 'string') {
      r.text += payload.delta.text;
      r.pieces++;
    }
    if (eventType === 'contentBlockDelta' && payload.delta?.toolUse) {
      calls.get(payload.contentBlockIndex)!.json += payload.delta.toolUse.input;
      r.pieces++;
    }
    if (eventType === 'messageStop') native = payload.stopReason;
    if (eventType === 'metadata') r.usage = { input: payload.usage.inputTokens, output: payload.usage.outputTokens };
  }
  r.toolCalls = [...calls.values()].map((c) => ({ name: c.name, arguments: c.json === '' ? {} : JSON.parse(c.json) }));
  r.finish = finishOf(native, r.toolCalls.length);
  return r;
}

/** /api/chat lines carry `message`, /api/generate lines `response`. */
function ollamaLine(l: any, r: ReadAnswer): ReadAnswer {
  const piece = typeof l.response === 'string' ? l.response : (l.message?.content ?? '');
  if (piece !== '') {
    r.text += piece;
    r.pieces++;
  }
  for (const c of l.message?.tool_calls ?? []) {
    r.toolCalls.push({ name: c.function.name, arguments: c.function.arguments });
    r.pieces++;
  }
  if (l.done === true) {
    r.finish = finishOf(l.done_reason ?? '', r.toolCalls.length);
    r.usage = { input: l.prompt_eval_count ?? 0, output: l.eval_count ?? 0 };
  }
  return r;
}

function ollamaStream(lines: any[]): ReadAnswer {
  const r = empty();
  for (const l of lines) {
    if (l.error !== undefined) throw new Error(`stream error line: ${JSON.stringify(l)}`);
    ollamaLine(l, r);
  }
  return r;
}
