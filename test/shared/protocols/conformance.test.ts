// One shared suite over every codec (as Hono runs one suite over every router): the same
// fixtures go through each codec, and what a protocol cannot carry is written down below as a
// known deviation, with why, and compared modulo that deviation.
//
// Run all six:          node --test dist/test/shared/protocols/conformance.test.js
// Run some of them:     CONFORMANCE_CODECS=openai,responses,ollama node --test dist/test/shared/protocols/conformance.test.js
// Record what it wrote: CONFORMANCE_RECORD=<file> (conformance-fast-path.test.ts runs it twice)
import { writeFileSync } from 'node:fs';
import { topLevelValueText } from '../../../src/shared/protocols/framing/json-field.js';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fastPathOf } from '../../../src/shared/protocols/fast-path/registry.js';
import { ERROR_TABLE, GatewayError, statusFor, type ErrorKind } from '../../../src/shared/errors.js';
import {
  PROTOCOL_NAMES,
  type FinishReason,
  type ModelRequest,
  type ModelResponse,
  type ProtocolName,
  type StreamEvent,
  type Usage,
} from '../../../src/shared/model/types.js';
import type { Codec, RouteInfo } from '../../../src/shared/protocols/codec.js';
import { TranslationRefused } from '../../../src/shared/protocols/refusal.js';
import { JSON_OUTPUT_TOOL_NAME } from '../../../src/shared/protocols/json-output-tool.js';
import { EFFORT_BUDGET_TOKENS, effortOfBudget } from '../../../src/shared/model/reasoning.js';
import { textBlock, toolBlock, turnEnd, withoutLiterals } from '../../helpers/stream-events.js';
import { assistant, image, text, toolCall, toolResult, user } from '../../helpers/model-turns.js';

// ---------------------------------------------------------------------------------------------
// Loading: the registry when it loads, else each codec alone, so that one missing codec does
// not hide the others' results.
// ---------------------------------------------------------------------------------------------

const selected: ProtocolName[] = process.env.CONFORMANCE_CODECS
  ? process.env.CONFORMANCE_CODECS.split(',').map((s) => s.trim() as ProtocolName)
  : [...PROTOCOL_NAMES];

async function loadCodec(name: ProtocolName): Promise<Codec> {
  try {
    const { CODECS } = await import('../../../src/shared/protocols/index.js');
    return CODECS[name];
  } catch {
    const mod = (await import(`../../../src/shared/protocols/${name}/codec.js`)) as Record<string, Codec>;
    const codec = mod[`${name}Codec`];
    if (codec === undefined) throw new Error(`src/shared/protocols/${name}/codec.ts does not export ${name}Codec`);
    return codec;
  }
}

// ---------------------------------------------------------------------------------------------
// The record: with CONFORMANCE_RECORD=<file>, what the codecs write and decode below (request
// and response bodies, stream bytes, the events read back, errors, passthrough bytes and usage)
// is kept in order and written to <file> at exit, so that conformance-fast-path.test.ts can run
// the suite with the fast paths on and forced off (GATEWAY_TRANSLATE_FAST_PATH=off) and compare.
// ---------------------------------------------------------------------------------------------

const recordFile = process.env.CONFORMANCE_RECORD;
const records: Array<[string, string]> | null = recordFile === undefined || recordFile === '' ? null : [];
if (records !== null) process.on('exit', () => writeFileSync(recordFile!, JSON.stringify(records)));

/** [what, text]: bytes as latin1 (binary framings stay comparable), values as JSON. */
function record(codec: Codec, what: string, value: unknown): void {
  if (records === null) return;
  const text = value instanceof Uint8Array ? Buffer.from(value).toString('latin1') : typeof value === 'string' ? value : JSON.stringify(value);
  records.push([`${codec.name} ${what}`, text]);
}

// ---------------------------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------------------------

const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const UPSTREAM_MODEL = 'up-model-1';

const WEATHER_SCHEMA = {
  type: 'object',
  properties: { city: { type: 'string', description: 'City name' }, days: { type: 'integer' } },
  required: ['city'],
};

const FORECAST_SCHEMA = {
  type: 'object',
  properties: { city: { type: 'string' }, days: { type: 'array', items: { type: 'integer' } } },
  required: ['city', 'days'],
  additionalProperties: false,
};

function richRequest(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: UPSTREAM_MODEL,
    system: 'You are terse. Answer in one line.',
    messages: [
      user(text('What is in these? héllo 世界 🎉'), image({ url: 'https://example.com/cat.png' })),
      assistant(text('A cat. Anything else?')),
      user(text('And this one, and the weather?'), image({ data: PNG_1PX, mediaType: 'image/png' })),
      assistant(text('Let me check.'), toolCall('call_w1', 'get_weather', '{"city":"Paris","days":2}')),
      toolResult('call_w1', 'Sunny, 21°C'),
      user(text('Thanks!')),
    ],
    tools: [
      { name: 'get_weather', description: 'Weather forecast for a city', parameters: WEATHER_SCHEMA },
      { name: 'get_time', parameters: { type: 'object', properties: {} } },
    ],
    toolChoice: { type: 'auto' },
    maxTokens: 256,
    temperature: 0.5,
    topP: 0.9,
    stop: ['END', '###'],
    stream: false,
    ...overrides,
  };
}

const REQUEST_CASES: Array<[string, ModelRequest]> = [
  ['rich request, tool_choice auto', richRequest()],
  ['tool_choice none', richRequest({ toolChoice: { type: 'none' } })],
  ['tool_choice required', richRequest({ toolChoice: { type: 'required' } })],
  ['tool_choice a named tool', richRequest({ toolChoice: { type: 'tool', name: 'get_weather' } })],
  ['stream true', richRequest({ stream: true })],
  [
    'a failed tool result',
    richRequest({
      messages: [
        user(text('Weather?')),
        assistant(toolCall('call_e', 'get_weather', '{"city":"Nowhere"}')),
        toolResult('call_e', 'no such city', { isError: true }),
      ],
    }),
  ],
  // Structured output, reasoning settings, cache markers and parallel tool calls (each codec's
  // request-settings.ts); the schema is closed and all-required, so every schema mode keeps it.
  [
    'structured output: a JSON schema, strict',
    richRequest({
      responseFormat: { type: 'json_schema', name: 'forecast', description: 'A forecast', schema: FORECAST_SCHEMA, strict: true },
    }),
  ],
  ['structured output: JSON mode', richRequest({ responseFormat: { type: 'json' } })],
  ['structured output: JSON mode, tool choice none', richRequest({ responseFormat: { type: 'json' }, toolChoice: { type: 'none' } })],
  ['reasoning: an effort level, summary shown', richRequest({ reasoning: { effort: 'high', summary: 'auto' } })],
  ['reasoning: a token budget', richRequest({ reasoning: { budgetTokens: 4096 } })],
  ['reasoning off', richRequest({ reasoning: { effort: 'none' } })],
  [
    'prompt-cache markers: system, a part (1h), a tool',
    richRequest({
      systemCache: {},
      messages: [user({ type: 'text', text: 'A long document to cache.', cache: { ttl: '1h' } }, image({ data: PNG_1PX, mediaType: 'image/png' }))],
      tools: [{ name: 'get_weather', description: 'Weather forecast for a city', parameters: WEATHER_SCHEMA, cache: {} }],
    }),
  ],
  ['parallel tool calls off', richRequest({ parallelToolCalls: false })],
  [
    'minimal: one user message, no options',
    {
      model: UPSTREAM_MODEL,
      messages: [user(text('Hi'))],
      stream: false,
    },
  ],
];

const CACHED_USAGE: Usage = { input: 100, output: 20, cacheRead: 30, cacheCreation: 7 };

/** An answer of the upstream model. */
const answer = (id: string, finishReason: FinishReason, usage: Usage, ...content: ModelResponse['content']): ModelResponse => ({
  id,
  model: UPSTREAM_MODEL,
  content,
  finishReason,
  usage,
});
const uncached = (input: number, output: number): Usage => ({ input, output, cacheRead: 0, cacheCreation: 0 });

const RESPONSE_CASES: Array<[string, ModelResponse]> = [
  ['text, stop, cache counts', answer('resp_1', 'stop', CACHED_USAGE, text('Hello wörld 🎉'))],
  [
    'text and tool calls',
    answer(
      'resp_2',
      'tool_calls',
      uncached(12, 9),
      text('Checking.'),
      toolCall('call_a', 'get_weather', '{"city":"Paris"}'),
      toolCall('call_b', 'get_time', '{}'),
    ),
  ],
  ['length', answer('resp_3', 'length', uncached(5, 3), text('Once upon a'))],
  ['content_filter', answer('resp_4', 'content_filter', uncached(5, 2), text('I cannot'))],
];

const STREAM_CASES: Array<[string, StreamEvent[]]> = [
  [
    'text then two tool calls',
    [
      { type: 'start', id: 'resp_s1', model: UPSTREAM_MODEL },
      ...textBlock(0, 'Hel', 'lo wörld 🎉 日本'),
      ...toolBlock(1, 'call_a', 'get_weather', '{"city":', '"Paris"}'),
      ...toolBlock(2, 'call_b', 'get_time', '{}'),
      ...turnEnd('tool_calls', CACHED_USAGE),
    ],
  ],
  [
    'text, stop',
    [
      { type: 'start', id: 'resp_s2', model: UPSTREAM_MODEL },
      ...textBlock(0, 'Sure: ', '"quoted"\nnew line\\ and data: [DONE] inside'),
      ...turnEnd('stop', { input: 9, output: 4, cacheRead: 0, cacheCreation: 0 }),
    ],
  ],
  [
    'length',
    [
      { type: 'start', id: 'resp_s3', model: UPSTREAM_MODEL },
      ...textBlock(0, 'Once upon a'),
      ...turnEnd('length', { input: 5, output: 3, cacheRead: 0, cacheCreation: 0 }),
    ],
  ],
];

// ---------------------------------------------------------------------------------------------
// Known deviations: what each protocol cannot carry, and why. Each normalizer gets deep clones
// of the expected and the actual value and erases exactly that difference from both.
// ---------------------------------------------------------------------------------------------

interface Deviations {
  /** The written list: what is lost or changed, and why. */
  notes: string[];
  /**
   * What the codec refuses (a TranslationRefused naming it, docs/compatibility.md) instead of
   * dropping: stripped from a fixture before it is encoded, and checked to be refused.
   */
  refused?: { note: string; strip: (r: ModelRequest) => void };
  /** Request cases (by label) the codec refuses with a TranslationRefused: the lane cannot honour them. */
  refusedCases?: Record<string, RegExp>;
  request?: (expected: ModelRequest, actual: ModelRequest) => void;
  response?: (expected: ModelResponse, actual: ModelResponse) => void;
  stream?: (expected: StreamEvent[], actual: StreamEvent[]) => void;
  usage?: (u: Usage) => void;
}

const foldCacheCreation = (u: Usage): void => {
  u.input += u.cacheCreation;
  u.cacheCreation = 0;
};
const foldAllCache = (u: Usage): void => {
  u.input += u.cacheRead + u.cacheCreation;
  u.cacheRead = 0;
  u.cacheCreation = 0;
};

function eachPart(r: ModelRequest, f: (p: ModelRequest['messages'][number]['content'][number]) => void): void {
  for (const m of r.messages) for (const p of m.content) f(p);
}
const dropImageUrls = (r: ModelRequest): void => {
  for (const m of r.messages) m.content = m.content.filter((p) => p.type !== 'image' || p.url === undefined);
};
/** A fixture as the codec can take it: what it refuses stripped (and checked apart). */
function encodable(dev: Deviations, req: ModelRequest): ModelRequest {
  if (dev.refused === undefined) return req;
  const r = structuredClone(req);
  dev.refused.strip(r);
  return r;
}
const forgetToolErrors = (r: ModelRequest): void =>
  eachPart(r, (p) => {
    if (p.type === 'tool_result') p.isError = false;
  });
const usageEvents = (events: StreamEvent[], f: (u: Usage) => void): void => {
  for (const e of events) if (e.type === 'usage') f(e.usage);
};
/** Protocols whose tool arguments are objects send each call's arguments whole, re-serialized. */
function coalesceToolArgs(events: StreamEvent[]): StreamEvent[] {
  const out: StreamEvent[] = [];
  for (const e of events) {
    const prev = out[out.length - 1];
    if (e.type === 'tool_args_delta' && prev?.type === 'tool_args_delta' && prev.index === e.index) prev.json += e.json;
    else out.push({ ...e });
  }
  for (const e of out) if (e.type === 'tool_args_delta') e.json = JSON.stringify(JSON.parse(e.json));
  return out;
}
/** Protocols without prompt-cache markers (their caching is automatic): markers are dropped. */
const dropCacheMarkers = (r: ModelRequest): void => {
  delete r.systemCache;
  eachPart(r, (p) => {
    if (p.type !== 'unsupported') delete p.cache;
  });
  for (const t of r.tools ?? []) delete t.cache;
};
/** What a schema mode keeps of a json_schema format (the rest is lost on that wire). */
const keepSchemaFields = (r: ModelRequest, keep: ReadonlyArray<'name' | 'description' | 'strict'>): void => {
  const f = r.responseFormat;
  if (f?.type !== 'json_schema') return;
  for (const k of ['name', 'description', 'strict'] as const) if (!keep.includes(k)) delete f[k];
};
/** A protocol that takes levels only reads a budget back as its level (model/reasoning.ts's table). */
const budgetAsLevel = (r: ModelRequest): void => {
  if (r.reasoning?.budgetTokens !== undefined) r.reasoning = { effort: effortOfBudget(r.reasoning.budgetTokens) };
};
const forgetSummary = (r: ModelRequest): void => {
  if (r.reasoning !== undefined) delete r.reasoning.summary;
};
/**
 * JSON mode towards a schema-only protocol is a call of the output tool (json-output-tool.ts):
 * it reads back as that tool among the tools (the caller's dropped with choice none), with a
 * forced choice. Mapped back here to the JSON mode it stands for.
 */
function jsonModeAsOutputTool(e: ModelRequest, a: ModelRequest): void {
  if (e.responseFormat?.type !== 'json') return;
  assert.ok(
    a.tools?.some((t) => t.name === JSON_OUTPUT_TOOL_NAME),
    'JSON mode is sent as the output tool',
  );
  a.tools = a.tools!.filter((t) => t.name !== JSON_OUTPUT_TOOL_NAME);
  if (e.toolChoice?.type === 'none') delete e.tools;
  if (a.tools.length === 0) delete a.tools;
  if (e.toolChoice === undefined) delete a.toolChoice;
  else a.toolChoice = e.toolChoice;
  a.responseFormat = { type: 'json' };
}
/** A thinking budget not under max_tokens is added to it (anthropic/request-settings.ts). */
const maxTokensGrowByBudget = (e: ModelRequest): void => {
  const budget = e.reasoning?.budgetTokens;
  if (budget !== undefined && e.maxTokens !== undefined && budget >= e.maxTokens) e.maxTokens += budget;
};
const blankStartIds = (events: StreamEvent[]): void => {
  for (const e of events) if (e.type === 'start') e.id = '';
};

const DEVIATIONS: Record<ProtocolName, Deviations> = {
  openai: {
    notes: [
      'tool_result.isError: a `tool` message has no error flag, so a failed result reads back as isError false.',
      'usage.cacheCreation: Chat Completions reports cached reads only; cache writes count as (uncached) prompt tokens.',
      'cache markers: not written (docs/decisions/203-no-cache-breakpoints-to-openai.md; caching is automatic there).',
      'reasoning: reasoning_effort is a level, so a budget reads back as its level; there is no summary setting.',
    ],
    request: (e, a) => {
      forgetToolErrors(e);
      forgetToolErrors(a);
      dropCacheMarkers(e);
      budgetAsLevel(e);
      forgetSummary(e);
    },
    usage: foldCacheCreation,
  },
  responses: {
    notes: [
      'stop sequences: the Responses API has none, so a request with `stop` is refused (not dropped).',
      'tool_result.isError: function_call_output has no error flag.',
      'usage.cacheCreation: only cached reads are reported (input_tokens_details.cached_tokens); writes count as input.',
      'finish reason: there is none on the wire; tool_calls is read from function_call items, so a "stop" beside a tool call, or "tool_calls" without one, cannot survive (no fixture does that).',
      'stream usage: sent once, inside response.completed, so only the last usage event survives (fixtures send one).',
    ],
    refused: {
      note: 'stop sequences',
      strip: (r) => {
        delete r.stop;
      },
    },
    request: (e, a) => {
      forgetToolErrors(e);
      forgetToolErrors(a);
      dropCacheMarkers(e);
      budgetAsLevel(e);
    },
    usage: foldCacheCreation,
  },
  ollama: {
    notes: [
      'image URLs: Ollama takes base64 images only, so http(s) URL images are refused (not dropped); base64 media types are read back from magic bytes.',
      'tool_choice: Ollama has no tool_choice; none sends no tools, a named tool sends only that tool, auto reads back absent, required is refused (as is parallel_tool_calls false).',
      'structured output: format takes the schema alone (no name, description or strict); reasoning: think is a level (a budget reads back as its level) with no summary; cache markers: none on this wire.',
      'tool_result.isError: a `tool` message has no error flag.',
      'usage cache fields: Ollama reports prompt_eval_count only; cached reads and writes count as input.',
      'response id: Ollama has none; one is made from created_at.',
      'finish content_filter: Ollama has no such reason; it reads back as stop.',
      'stream tool arguments: Ollama sends each call whole with arguments as an object, so deltas coalesce into one re-serialized JSON text.',
      "tool call ids: not in Ollama's documented API; the codec writes and reads them as extra fields (`tool_calls[].id`, `tool_call_id`).",
    ],
    refused: { note: 'http(s) image URLs', strip: dropImageUrls },
    refusedCases: { 'tool_choice required': /tool_choice required/, 'parallel tool calls off': /parallel_tool_calls false/ },
    request: (e, a) => {
      const choice = e.toolChoice;
      if (choice?.type === 'none') delete e.tools;
      if (choice?.type === 'tool') e.tools = e.tools?.filter((t) => t.name === choice.name);
      for (const r of [e, a]) {
        delete r.toolChoice;
        forgetToolErrors(r);
      }
      dropCacheMarkers(e);
      keepSchemaFields(e, []);
      budgetAsLevel(e);
      forgetSummary(e);
    },
    response: (e, a) => {
      e.id = a.id = '';
      for (const r of [e, a]) if (r.finishReason === 'content_filter') r.finishReason = 'stop';
    },
    stream: (e, a) => {
      for (const events of [e, a]) {
        const merged = coalesceToolArgs(events);
        events.splice(0, events.length, ...merged);
        blankStartIds(events);
      }
    },
    usage: foldAllCache,
  },
  anthropic: {
    notes: [
      "max_tokens: required by Anthropic, so a request without it gains the encoder's default (4096); a thinking budget not under it is added to it.",
      'structured output: output_config.format takes the schema alone (always strict); JSON mode is a forced call of the output tool.',
    ],
    request: (e, a) => {
      if (e.maxTokens === undefined) delete a.maxTokens;
      maxTokensGrowByBudget(e);
      keepSchemaFields(e, ['strict']);
      jsonModeAsOutputTool(e, a);
    },
  },
  gemini: {
    notes: [
      "image URLs without a media type: written as fileData with the mimeType the URL's extension names (so it reads back with that media type); a URL that names none is refused.",
      'usage.cacheCreation: Gemini reports cachedContentTokenCount (reads) only; writes count as prompt tokens.',
      'stream tool arguments: functionCall.args is an object, sent whole: deltas coalesce into one re-serialized JSON text.',
      'tool_result.isError: functionResponse has no error flag; the codec writes a failed result as response {"error": text} and reads that shape back as a failure (Gemini\'s documented convention), so it survives.',
      'response id: synthesized ("gemini-response") when the upstream sends no responseId; tool call ids: call_0, call_1... when functionCall has no id.',
      "structured output: responseJsonSchema takes the schema alone; reasoning is always a thinkingBudget (a level reads back as its row's budget, off as 0); cache markers: none on this wire (implicit caching); parallel_tool_calls false: refused, Gemini has no such setting.",
    ],
    refusedCases: { 'parallel tool calls off': /parallel_tool_calls false/ },
    request: (e, a) => {
      eachPart(a, (p) => {
        if (p.type === 'image' && p.url !== undefined && p.url.endsWith('.png') && p.mediaType === 'image/png') delete p.mediaType;
      });
      dropCacheMarkers(e);
      keepSchemaFields(e, []);
      // Always a thinkingBudget: off is 0, a level its row's budget (model/reasoning.ts).
      const effort = e.reasoning?.effort;
      if (effort !== undefined) {
        e.reasoning = { ...e.reasoning, budgetTokens: EFFORT_BUDGET_TOKENS[effort] };
        delete e.reasoning.effort;
      }
    },
    stream: (e, a) => {
      for (const events of [e, a]) events.splice(0, events.length, ...coalesceToolArgs(events));
    },
    usage: foldCacheCreation,
  },
  bedrock: {
    notes: [
      'image URLs: Converse takes image bytes (or S3 locations), not http(s) URLs; such images are refused, not dropped (data: URLs become bytes).',
      'tool_choice none: Converse has no "none". The tools are left out, unless the history holds tool blocks (Converse then requires toolConfig), when they go without a choice: either way "none" reads back absent.',
      'response id and model: a Converse response carries neither; the id reads back as "bedrock-converse" and the model as "".',
      'structured output: JSON mode is a forced call of the output tool; reasoning: a thinking budget not under maxTokens is added to it; parallel_tool_calls false: refused, Converse has no such setting.',
    ],
    refused: { note: 'http(s) image URLs', strip: dropImageUrls },
    refusedCases: { 'parallel tool calls off': /parallel_tool_calls false/ },
    request: (e, a) => {
      jsonModeAsOutputTool(e, a);
      for (const r of [e, a]) {
        if (r.toolChoice?.type === 'none') delete r.toolChoice;
      }
      maxTokensGrowByBudget(e);
    },
    response: (e, a) => {
      e.id = a.id = '';
      e.model = a.model = '';
    },
    stream: (e, a) => {
      for (const events of [e, a])
        for (const ev of events)
          if (ev.type === 'start') {
            ev.id = '';
            ev.model = '';
          }
    },
  },
};

// ---------------------------------------------------------------------------------------------
// Comparison helpers
// ---------------------------------------------------------------------------------------------

function clone<T>(v: T): T {
  return structuredClone(v);
}

/** A tool result's `name` is an optional hint for protocols that key results by name; not compared. */
function stripResultNames(r: ModelRequest): void {
  eachPart(r, (p) => {
    if (p.type === 'tool_result') delete p.name;
  });
}

function compareRequests(dev: Deviations, expected: ModelRequest, actual: ModelRequest): void {
  const e = clone(expected);
  const a = clone(actual);
  stripResultNames(e);
  stripResultNames(a);
  dev.request?.(e, a);
  assert.deepEqual(a, e);
}

function compareResponses(dev: Deviations, expected: ModelResponse, actual: ModelResponse): void {
  const e = clone(expected);
  const a = clone(actual);
  dev.response?.(e, a);
  if (dev.usage) {
    dev.usage(e.usage);
    dev.usage(a.usage);
  }
  assert.deepEqual(a, e);
}

function normalizeStream(dev: Deviations, expected: StreamEvent[], actual: StreamEvent[]): [StreamEvent[], StreamEvent[]] {
  const e = clone(expected);
  const a = clone(actual);
  dev.stream?.(e, a);
  if (dev.usage) {
    usageEvents(e, dev.usage);
    usageEvents(a, dev.usage);
  }
  return [e, a];
}

/** Where the suite reads the route from: gemini and bedrock put the model and stream flag in the path. */
function routeFromPath(path: string): RouteInfo {
  const gemini = /\/models\/([^/:]+):(streamGenerateContent|generateContent)/.exec(path);
  if (gemini) return { pathModel: decodeURIComponent(gemini[1]!), pathStream: gemini[2] === 'streamGenerateContent' };
  const bedrock = /\/model\/([^/]+)\/(converse-stream|converse)(?:$|\?)/.exec(path);
  if (bedrock) return { pathModel: decodeURIComponent(bedrock[1]!), pathStream: bedrock[2] === 'converse-stream' };
  return {};
}

const utf8 = new TextEncoder();
function bytesOf(out: string | Uint8Array | readonly Uint8Array[]): Uint8Array {
  if (typeof out === 'string') return utf8.encode(out);
  return out instanceof Uint8Array ? out : concat([...out]);
}
function concat(parts: Uint8Array[]): Uint8Array {
  const total = parts.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function encodeStream(codec: Codec, events: StreamEvent[]): Uint8Array {
  const enc = codec.createStreamEncoder();
  const bytes = concat(events.map((e) => bytesOf(enc.encode(e))));
  record(codec, 'stream bytes', bytes);
  return bytes;
}

function decodeChunks(codec: Codec, chunks: Uint8Array[]): StreamEvent[] {
  const dec = codec.createStreamDecoder();
  const out: StreamEvent[] = [];
  for (const c of chunks) out.push(...dec.push(c));
  out.push(...dec.finish());
  const events = withoutLiterals(out);
  // Split reads are held to the whole read within a run; the whole read is recorded.
  if (chunks.length === 1) record(codec, 'stream events', events);
  return events;
}

function headerValue(headers: Record<string, string>, name: string): string | undefined {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}

/** Each protocol's own error body (PROTOCOLS.md, "Errors in each protocol's own shape"). */
const ERROR_SHAPES: Record<ProtocolName, (body: unknown, kind: ErrorKind, message: string, headers: Record<string, string>) => void> = {
  openai: (b, k, m) => assert.deepEqual(b, { error: { message: m, type: ERROR_TABLE[k].openai, param: null, code: k } }),
  responses: (b, k, m) => assert.deepEqual(b, { error: { message: m, type: ERROR_TABLE[k].openai, param: null, code: k } }),
  anthropic: (b, k, m) => assert.deepEqual(b, { type: 'error', error: { type: ERROR_TABLE[k].anthropic, message: m } }),
  gemini: (b, k, m) => assert.deepEqual(b, { error: { code: statusFor(k, 'gemini'), message: m, status: ERROR_TABLE[k].gemini } }),
  bedrock: (b, k, m, h) => {
    assert.equal((b as { message?: unknown }).message, m);
    assert.equal(headerValue(h, 'x-amzn-errortype'), ERROR_TABLE[k].bedrock);
  },
  ollama: (b, _k, m) => assert.deepEqual(b, { error: m }),
};

// ---------------------------------------------------------------------------------------------
// The suite
// ---------------------------------------------------------------------------------------------

for (const name of selected) {
  let codec: Codec | undefined;
  let loadError: unknown;
  try {
    codec = await loadCodec(name);
  } catch (e) {
    loadError = e;
  }
  const dev = DEVIATIONS[name];

  describe(`conformance: ${name}`, () => {
    if (codec === undefined) {
      it('loads', () => {
        throw loadError;
      });
      return;
    }
    const c = codec;

    it('is registered under its own name', () => assert.equal(c.name, name));

    if (dev.refused !== undefined) {
      it(`refuses ${dev.refused.note} rather than dropping them`, () => {
        assert.throws(
          () => c.encodeRequest(richRequest(), UPSTREAM_MODEL),
          (e: unknown) => {
            assert.ok(e instanceof TranslationRefused, `a TranslationRefused, got ${String(e)}`);
            assert.equal(e.kind, 'untranslatable');
            assert.match(e.message, new RegExp(`the ${name} protocol`));
            return true;
          },
        );
      });
    }

    describe('request round trip: decodeRequest(encodeRequest(req)) == req', () => {
      for (const [label, fixture] of REQUEST_CASES) {
        const req = encodable(dev, fixture);
        const refusal = dev.refusedCases?.[label];
        if (refusal !== undefined) {
          it(`${label}: refused`, () => {
            assert.throws(
              () => c.encodeRequest(req, UPSTREAM_MODEL),
              (e: unknown) => e instanceof TranslationRefused && refusal.test(e.message),
            );
          });
          continue;
        }
        it(label, () => {
          const encoded = c.encodeRequest(req, UPSTREAM_MODEL);
          record(c, `request ${encoded.path}`, encoded.body);
          const route = routeFromPath(encoded.path);
          const body: unknown = JSON.parse(encoded.body);
          assert.equal(c.requestedModel(body, route), UPSTREAM_MODEL);
          assert.equal(c.requestedStream(body, route), req.stream);
          const decoded = c.decodeRequest(body, route);
          record(c, 'request decoded', decoded);
          compareRequests(dev, req, decoded);
          assert.equal(encoded.path, c.upstreamPath(UPSTREAM_MODEL, req.stream));
        });
      }
    });

    describe('bad input is a GatewayError, never a crash', () => {
      const route = routeFromPath(c.encodeRequest(encodable(dev, richRequest()), UPSTREAM_MODEL).path);
      const isGatewayError = (kind: ErrorKind) => (e: unknown) => {
        assert.ok(e instanceof GatewayError, `a GatewayError, got ${String(e)}`);
        assert.equal(e.kind, kind);
        assert.ok(e.message.length > 0);
        return true;
      };
      it('decodeRequest rejects bodies it cannot read with invalid_request', () => {
        for (const body of [null, [], 'text', 42, {}, { model: 5, messages: 'x', contents: 'x' }]) {
          assert.throws(() => c.decodeRequest(body, route), isGatewayError('invalid_request'), JSON.stringify(body));
        }
      });
      // Only non-objects: what an empty object means is the protocol's call (a Gemini answer to
      // a blocked prompt has no candidates at all).
      it('decodeResponse rejects bodies it cannot read with upstream_error', () => {
        for (const body of [null, [], 'text', 42]) {
          assert.throws(() => c.decodeResponse(body), isGatewayError('upstream_error'), JSON.stringify(body));
        }
      });
      it('upstreamErrorMessage never throws', () => {
        for (const body of [undefined, null, 'x', {}, { error: 5 }, { error: { message: 5 } }]) {
          assert.equal(typeof c.upstreamErrorMessage(500, body), 'string');
        }
      });
    });

    describe('response round trip: decodeResponse(encodeResponse(resp)) == resp', () => {
      for (const [label, resp] of RESPONSE_CASES) {
        it(label, () => {
          const text = c.encodeResponse(resp);
          record(c, 'response', text);
          const decoded = c.decodeResponse(JSON.parse(text));
          record(c, 'response decoded', decoded);
          compareResponses(dev, resp, decoded);
        });
      }
    });

    describe('stream round trip, bytes split at every offset and one byte at a time', () => {
      for (const [label, events] of STREAM_CASES) {
        it(label, () => {
          const bytes = encodeStream(c, events);
          const whole = decodeChunks(c, [bytes]);
          const [expected, actual] = normalizeStream(dev, events, whole);
          assert.deepEqual(actual, expected);
          const want = JSON.stringify(actual);
          for (let cut = 0; cut <= bytes.length; cut++) {
            const split = decodeChunks(c, [bytes.subarray(0, cut), bytes.subarray(cut)]);
            const got = JSON.stringify(normalizeStream(dev, events, split)[1]);
            if (got !== want) assert.deepEqual(JSON.parse(got), JSON.parse(want), `split at byte ${cut}`);
          }
          const ones: Uint8Array[] = [];
          for (let i = 0; i < bytes.length; i++) ones.push(bytes.subarray(i, i + 1));
          assert.deepEqual(normalizeStream(dev, events, decodeChunks(c, ones))[1], actual, 'one byte at a time');
        });
      }
    });

    describe('a stream that fails is an upstream_error, never a clean end', () => {
      const [, events] = STREAM_CASES[0]!;
      const isUpstreamError = (e: unknown) => e instanceof GatewayError && e.kind === 'upstream_error';
      it('cut in half', () => {
        const bytes = encodeStream(c, events);
        assert.throws(() => decodeChunks(c, [bytes.subarray(0, bytes.length >> 1)]), isUpstreamError);
      });
      it('its own mid-stream error event, after the events before it', () => {
        const enc = c.createStreamEncoder();
        const head = events.slice(0, 3);
        const bytes = concat([...head.map((e) => bytesOf(enc.encode(e))), bytesOf(enc.error('upstream_error', 'it broke'))]);
        const dec = c.createStreamDecoder();
        const got: StreamEvent[] = [];
        assert.throws(() => {
          got.push(...dec.push(bytes));
          got.push(...dec.finish());
        }, isUpstreamError);
        assert.deepEqual(
          got.map((e) => e.type),
          head.map((e) => e.type),
        );
      });
    });

    describe("errors in the protocol's own shape", () => {
      const kinds: ErrorKind[] = [
        'invalid_request',
        'unauthorized',
        'forbidden',
        'model_not_found',
        'rate_limited',
        'insufficient_quota',
        'exhausted',
        'upstream_timeout',
      ];
      for (const kind of kinds) {
        it(kind, () => {
          const message = `gateway says ${kind}`;
          const err = c.encodeError(kind, message);
          record(c, `error ${err.status}`, err.body);
          assert.equal(err.status, statusFor(kind, name));
          assert.match(headerValue(err.headers, 'content-type') ?? '', /^application\/json/);
          assert.equal(headerValue(err.headers, 'retry-after'), undefined);
          ERROR_SHAPES[name](JSON.parse(err.body), kind, message, err.headers);
        });
      }
      it('carries retry-after when given', () => {
        const err = c.encodeError('rate_limited', 'slow down', 7);
        assert.equal(headerValue(err.headers, 'retry-after'), '7');
      });
      it('has a mid-stream error event that names the message', () => {
        const out = c.createStreamEncoder().error('upstream_error', 'upstream fell over');
        assert.ok(Buffer.from(bytesOf(out)).includes('upstream fell over'));
      });
    });

    describe('passthrough', () => {
      for (const [label, events] of STREAM_CASES) {
        it(`stream usage equals the encoded stream's usage: ${label}`, () => {
          const encoded = c.encodeRequest(encodable(dev, richRequest({ stream: true })), UPSTREAM_MODEL);
          const body: unknown = JSON.parse(encoded.body);
          const bytes = encodeStream(c, events);
          const pt = c.createPassthroughStream(body);
          const out: Uint8Array[] = [];
          for (let i = 0; i < bytes.length; i += 7) out.push(bytesOf(pt.push(bytes.subarray(i, i + 7))));
          out.push(bytesOf(pt.end()));
          record(c, 'passthrough bytes', concat(out));
          record(c, 'passthrough usage', pt.usage());
          const expected = clone([...events].reverse().find((e) => e.type === 'usage') as { type: 'usage'; usage: Usage }).usage;
          const actual = clone(pt.usage());
          assert.ok(actual !== null, 'usage seen');
          if (dev.usage) {
            dev.usage(expected);
            dev.usage(actual);
          }
          assert.deepEqual(actual, expected);
          if (c.streamUsageRequested(body)) assert.deepEqual(Buffer.from(concat(out)), Buffer.from(bytes), 'bytes unchanged');
        });
      }

      for (const [label, resp] of RESPONSE_CASES) {
        it(`usageFromResponse: ${label}`, () => {
          const expected = clone(resp.usage);
          const actual = clone(c.usageFromResponse(JSON.parse(c.encodeResponse(resp))));
          assert.ok(actual !== null);
          if (dev.usage) {
            dev.usage(expected);
            dev.usage(actual);
          }
          assert.deepEqual(actual, expected);
        });

        it(`the fast path's usageField alone reads the same usage as the whole body: ${label}`, () => {
          const text = c.encodeResponse(resp);
          const whole = c.usageFromResponse(JSON.parse(text));
          const field = fastPathOf(c)?.usageField ?? null;
          if (field === null) return; // usage spread over top-level fields: the whole body is read
          const value = topLevelValueText(text, field);
          assert.ok(value !== undefined, `the encoded response has a top-level ${field}`);
          assert.deepEqual(c.usageFromResponse({ [field]: JSON.parse(value) }), whole);
        });
      }

      it("passthroughBody keeps the request and names the lane's model", () => {
        for (const stream of [false, true]) {
          const encoded = c.encodeRequest(encodable(dev, richRequest({ stream })), 'caller-pool');
          const route = routeFromPath(encoded.path);
          const body: unknown = JSON.parse(encoded.body);
          const out = c.passthroughBody(encoded.body, body, UPSTREAM_MODEL, stream);
          const rewritten: unknown = JSON.parse(out);
          const inBody = c.requestedModel(body, {}) !== undefined;
          assert.equal(c.requestedModel(rewritten, route), inBody ? UPSTREAM_MODEL : 'caller-pool');
          const before = c.decodeRequest(body, route);
          const after = c.decodeRequest(rewritten, route);
          assert.deepEqual({ ...after, model: '' }, { ...before, model: '' });
        }
      });
    });

    it('has its deviations written down', () => assert.ok(Array.isArray(dev.notes)));
  });
}
