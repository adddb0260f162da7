// Each protocol, by plain fetch: non-stream and stream, text and tool answers, usage in the
// protocol's own convention, the tool-result turn answered with text, and the error shape.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mockText } from '../../src/mock/content.js';
import { decodeEventStream, parseNdjson, parseSse, post, sseJson, WEATHER_TOOL_SCHEMA } from './wire.js';
import { suiteMock } from '../helpers/clients/stack.js';

interface Turn {
  tools: boolean;
  toolResultLast: boolean;
  stream: boolean;
}

/** Usage as the test reads it back: uncached input, cache read, output. */
interface Usage {
  input: number;
  cacheRead: number;
  output: number;
}

interface Answer {
  text: string;
  toolName: string | null;
  toolId: string | null;
  args: unknown;
  finish: string | null;
  usage: Usage;
  model: string;
}

interface ProtocolCase {
  name: string;
  path(model: string, stream: boolean): string;
  body(model: string, turn: Turn): unknown;
  readJson(text: string): Answer;
  readStream(bytes: Buffer): Answer;
  streamType: string;
  toolId: string | null;
  toolFinish: string | null;
  textFinish: string | null;
}

const MODEL = 'm-1';
const WEATHER = 'get_weather';

const openai: ProtocolCase = {
  name: 'openai',
  path: () => '/v1/chat/completions',
  body: (model, t) => ({
    model,
    stream: t.stream,
    ...(t.stream ? { stream_options: { include_usage: true } } : {}),
    messages: [
      { role: 'user', content: 'weather?' },
      ...(t.toolResultLast
        ? [
            { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: WEATHER, arguments: '{}' } }] },
            { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
          ]
        : []),
    ],
    ...(t.tools ? { tools: [{ type: 'function', function: { name: WEATHER, parameters: WEATHER_TOOL_SCHEMA } }] } : {}),
  }),
  readJson(text) {
    const j = JSON.parse(text);
    assert.equal(j.object, 'chat.completion');
    const m = j.choices[0].message;
    const call = m.tool_calls?.[0];
    return {
      text: m.content ?? '',
      toolName: call?.function.name ?? null,
      toolId: call?.id ?? null,
      args: call ? JSON.parse(call.function.arguments) : null,
      finish: j.choices[0].finish_reason,
      usage: {
        input: j.usage.prompt_tokens - j.usage.prompt_tokens_details.cached_tokens,
        cacheRead: j.usage.prompt_tokens_details.cached_tokens,
        output: j.usage.completion_tokens,
      },
      model: j.model,
    };
  },
  readStream(bytes) {
    const events = parseSse(bytes.toString('utf8'));
    assert.equal(events.at(-1)?.data, '[DONE]');
    const chunks = sseJson(bytes.toString('utf8'));
    assert.equal(chunks[0].choices[0].delta.role, 'assistant');
    let text = '';
    let args = '';
    let toolName: string | null = null;
    let toolId: string | null = null;
    let finish: string | null = null;
    for (const c of chunks) {
      assert.equal(c.object, 'chat.completion.chunk');
      const d = c.choices[0]?.delta;
      if (d === undefined) continue;
      text += d.content ?? '';
      const tc = d.tool_calls?.[0];
      if (tc) {
        assert.equal(tc.index, 0);
        toolName ??= tc.function?.name ?? null;
        toolId ??= tc.id ?? null;
        args += tc.function?.arguments ?? '';
      }
      finish = c.choices[0].finish_reason ?? finish;
    }
    const usageChunk = chunks.at(-1);
    assert.deepEqual(usageChunk.choices, []);
    const u = usageChunk.usage;
    return {
      text,
      toolName,
      toolId,
      args: args ? JSON.parse(args) : null,
      finish,
      usage: { input: u.prompt_tokens - u.prompt_tokens_details.cached_tokens, cacheRead: u.prompt_tokens_details.cached_tokens, output: u.completion_tokens },
      model: usageChunk.model,
    };
  },
  streamType: 'text/event-stream',
  toolId: 'call_mock_1',
  toolFinish: 'tool_calls',
  textFinish: 'stop',
};

const responses: ProtocolCase = {
  name: 'responses',
  path: () => '/v1/responses',
  body: (model, t) => ({
    model,
    stream: t.stream,
    input: [
      { role: 'user', content: 'weather?' },
      ...(t.toolResultLast
        ? [
            { type: 'function_call', call_id: 'c1', name: WEATHER, arguments: '{}' },
            { type: 'function_call_output', call_id: 'c1', output: 'sunny' },
          ]
        : []),
    ],
    ...(t.tools ? { tools: [{ type: 'function', name: WEATHER, parameters: WEATHER_TOOL_SCHEMA }] } : {}),
  }),
  readJson(text) {
    return readResponse(JSON.parse(text));
  },
  readStream(bytes) {
    const events = parseSse(bytes.toString('utf8'));
    const types = events.map((e) => e.event);
    assert.deepEqual(types.slice(0, 3), ['response.created', 'response.in_progress', 'response.output_item.added']);
    assert.equal(types.at(-1), 'response.completed');
    const payloads = events.map((e) => JSON.parse(e.data));
    payloads.forEach((p, i) => {
      assert.equal(p.sequence_number, i);
      assert.equal(p.type, events[i]!.event);
    });
    let text = '';
    let args = '';
    for (const p of payloads) {
      if (p.type === 'response.output_text.delta') text += p.delta;
      if (p.type === 'response.function_call_arguments.delta') args += p.delta;
    }
    const done = readResponse(payloads.at(-1).response);
    assert.equal(text, done.text);
    if (done.toolName !== null) {
      assert.deepEqual(JSON.parse(args), done.args);
      assert.ok(types.includes('response.function_call_arguments.done'));
    } else {
      for (const t of ['response.content_part.added', 'response.output_text.done', 'response.content_part.done', 'response.output_item.done'])
        assert.ok(types.includes(t), t);
    }
    return done;
  },
  streamType: 'text/event-stream',
  toolId: 'call_mock_1',
  toolFinish: null,
  textFinish: null,
};

function readResponse(r: any): Answer {
  assert.equal(r.object, 'response');
  assert.equal(r.status, 'completed');
  const item = r.output[0];
  const u = r.usage;
  return {
    text: item.type === 'message' ? item.content.map((c: any) => c.text).join('') : '',
    toolName: item.type === 'function_call' ? item.name : null,
    toolId: item.type === 'function_call' ? item.call_id : null,
    args: item.type === 'function_call' ? JSON.parse(item.arguments) : null,
    finish: null,
    usage: { input: u.input_tokens - u.input_tokens_details.cached_tokens, cacheRead: u.input_tokens_details.cached_tokens, output: u.output_tokens },
    model: r.model,
  };
}

const anthropic: ProtocolCase = {
  name: 'anthropic',
  path: () => '/v1/messages',
  body: (model, t) => ({
    model,
    max_tokens: 100,
    stream: t.stream,
    messages: [
      { role: 'user', content: 'weather?' },
      ...(t.toolResultLast
        ? [
            { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: WEATHER, input: {} }] },
            { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'sunny' }] },
          ]
        : []),
    ],
    ...(t.tools ? { tools: [{ name: WEATHER, input_schema: WEATHER_TOOL_SCHEMA }] } : {}),
  }),
  readJson(text) {
    const j = JSON.parse(text);
    assert.equal(j.type, 'message');
    const block = j.content[0];
    return {
      text: block.type === 'text' ? block.text : '',
      toolName: block.type === 'tool_use' ? block.name : null,
      toolId: block.type === 'tool_use' ? block.id : null,
      args: block.type === 'tool_use' ? block.input : null,
      finish: j.stop_reason,
      usage: { input: j.usage.input_tokens, cacheRead: j.usage.cache_read_input_tokens, output: j.usage.output_tokens },
      model: j.model,
    };
  },
  readStream(bytes) {
    const events = parseSse(bytes.toString('utf8'));
    const types = events.map((e) => e.event);
    assert.deepEqual(types.slice(0, 3), ['message_start', 'content_block_start', 'ping']);
    assert.deepEqual(types.slice(-3), ['content_block_stop', 'message_delta', 'message_stop']);
    const payloads = events.map((e) => JSON.parse(e.data));
    payloads.forEach((p, i) => assert.equal(p.type, events[i]!.event));
    const start = payloads[0].message;
    const block = payloads[1].content_block;
    let text = '';
    let json = '';
    for (const p of payloads) {
      if (p.type !== 'content_block_delta') continue;
      if (p.delta.type === 'text_delta') text += p.delta.text;
      else json += p.delta.partial_json;
    }
    const delta = payloads.at(-2);
    return {
      text,
      toolName: block.type === 'tool_use' ? block.name : null,
      toolId: block.type === 'tool_use' ? block.id : null,
      args: json ? JSON.parse(json) : null,
      finish: delta.delta.stop_reason,
      usage: { input: start.usage.input_tokens, cacheRead: start.usage.cache_read_input_tokens, output: delta.usage.output_tokens },
      model: start.model,
    };
  },
  streamType: 'text/event-stream',
  toolId: 'toolu_mock_1',
  toolFinish: 'tool_use',
  textFinish: 'end_turn',
};

function geminiAnswer(chunks: any[]): Answer {
  let text = '';
  let call: any = null;
  let finish: string | null = null;
  for (const c of chunks) {
    const cand = c.candidates[0];
    for (const part of cand.content.parts) {
      text += part.text ?? '';
      call ??= part.functionCall ?? null;
    }
    finish = cand.finishReason ?? finish;
  }
  const last = chunks.at(-1);
  const u = last.usageMetadata;
  const cached = u.cachedContentTokenCount ?? 0;
  return {
    text,
    toolName: call?.name ?? null,
    toolId: null,
    args: call?.args ?? null,
    finish,
    usage: { input: u.promptTokenCount - cached, cacheRead: cached, output: u.candidatesTokenCount },
    model: last.modelVersion,
  };
}

const gemini: ProtocolCase = {
  name: 'gemini',
  path: (model, stream) => `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
  body: (_model, t) => ({
    contents: [
      { role: 'user', parts: [{ text: 'weather?' }] },
      ...(t.toolResultLast
        ? [
            { role: 'model', parts: [{ functionCall: { name: WEATHER, args: {} } }] },
            { role: 'user', parts: [{ functionResponse: { name: WEATHER, response: { sky: 'sunny' } } }] },
          ]
        : []),
    ],
    ...(t.tools ? { tools: [{ functionDeclarations: [{ name: WEATHER, parameters: WEATHER_TOOL_SCHEMA }] }] } : {}),
  }),
  readJson: (text) => geminiAnswer([JSON.parse(text)]),
  readStream(bytes) {
    const text = bytes.toString('utf8');
    assert.ok(text.includes('\r\n\r\n'), 'gemini separates SSE events with CRLF');
    const chunks = sseJson(text);
    chunks.slice(0, -1).forEach((c) => assert.equal(c.usageMetadata, undefined));
    return geminiAnswer(chunks);
  },
  streamType: 'text/event-stream',
  toolId: null,
  toolFinish: 'STOP',
  textFinish: 'STOP',
};

function bedrockAnswer(content: any[], stop: string, u: any): Omit<Answer, 'model'> {
  const c = content[0];
  return {
    text: c.text ?? '',
    toolName: c.toolUse?.name ?? null,
    toolId: c.toolUse?.toolUseId ?? null,
    args: c.toolUse ? (typeof c.toolUse.input === 'string' ? JSON.parse(c.toolUse.input) : c.toolUse.input) : null,
    finish: stop,
    usage: { input: u.inputTokens, cacheRead: u.cacheReadInputTokens ?? 0, output: u.outputTokens },
  };
}

const BEDROCK_MODEL = 'anthropic.claude-m-v1:0';

const bedrock: ProtocolCase = {
  name: 'bedrock',
  path: (model, stream) => `/model/${encodeURIComponent(model)}/${stream ? 'converse-stream' : 'converse'}`,
  body: (_model, t) => ({
    messages: [
      { role: 'user', content: [{ text: 'weather?' }] },
      ...(t.toolResultLast
        ? [
            { role: 'assistant', content: [{ toolUse: { toolUseId: 't1', name: WEATHER, input: {} } }] },
            { role: 'user', content: [{ toolResult: { toolUseId: 't1', content: [{ text: 'sunny' }] } }] },
          ]
        : []),
    ],
    ...(t.tools ? { toolConfig: { tools: [{ toolSpec: { name: WEATHER, inputSchema: { json: WEATHER_TOOL_SCHEMA } } }] } } : {}),
  }),
  readJson(text) {
    const j = JSON.parse(text);
    assert.equal(j.output.message.role, 'assistant');
    assert.equal(typeof j.metrics.latencyMs, 'number');
    return { ...bedrockAnswer(j.output.message.content, j.stopReason, j.usage), model: BEDROCK_MODEL }; // bedrock answers carry no model
  },
  readStream(bytes) {
    const events = decodeEventStream(bytes);
    events.forEach((e) => assert.equal(e.messageType, 'event'));
    const types = events.map((e) => e.eventType);
    assert.equal(types[0], 'messageStart');
    assert.deepEqual(types.slice(-3), ['contentBlockStop', 'messageStop', 'metadata']);
    const start = events.find((e) => e.eventType === 'contentBlockStart')?.payload.start.toolUse;
    let text = '';
    let input = '';
    for (const e of events) {
      if (e.eventType !== 'contentBlockDelta') continue;
      text += e.payload.delta.text ?? '';
      input += e.payload.delta.toolUse?.input ?? '';
    }
    const content = start ? [{ toolUse: { ...start, input } }] : [{ text }];
    const meta = events.at(-1)!.payload;
    assert.equal(typeof meta.metrics.latencyMs, 'number');
    return { ...bedrockAnswer(content, events.at(-2)!.payload.stopReason, meta.usage), model: BEDROCK_MODEL };
  },
  streamType: 'application/vnd.amazon.eventstream',
  toolId: 'tooluse_mock_1',
  toolFinish: 'tool_use',
  textFinish: 'end_turn',
};

function ollamaAnswer(lines: any[]): Answer {
  let text = '';
  let call: any = null;
  for (const l of lines) {
    text += l.message.content;
    call ??= l.message.tool_calls?.[0]?.function ?? null;
  }
  const last = lines.at(-1);
  assert.equal(last.done, true);
  lines.slice(0, -1).forEach((l) => assert.equal(l.done, false));
  return {
    text,
    toolName: call?.name ?? null,
    toolId: null,
    args: call?.arguments ?? null,
    finish: last.done_reason,
    usage: { input: last.prompt_eval_count, cacheRead: 0, output: last.eval_count },
    model: last.model,
  };
}

const ollama: ProtocolCase = {
  name: 'ollama',
  path: () => '/api/chat',
  body: (model, t) => ({
    model,
    stream: t.stream,
    messages: [
      { role: 'user', content: 'weather?' },
      ...(t.toolResultLast
        ? [
            { role: 'assistant', content: '', tool_calls: [{ function: { name: WEATHER, arguments: {} } }] },
            { role: 'tool', content: 'sunny' },
          ]
        : []),
    ],
    ...(t.tools ? { tools: [{ type: 'function', function: { name: WEATHER, parameters: WEATHER_TOOL_SCHEMA } }] } : {}),
  }),
  readJson: (text) => ollamaAnswer([JSON.parse(text)]),
  readStream: (bytes) => ollamaAnswer(parseNdjson(bytes.toString('utf8'))),
  streamType: 'application/x-ndjson',
  toolId: null,
  toolFinish: 'stop',
  textFinish: 'stop',
};

const CASES = [openai, responses, anthropic, gemini, bedrock, ollama];

describe('mock provider protocols', () => {
  const mock = suiteMock();

  for (const pc of CASES) {
    const model = pc === bedrock ? BEDROCK_MODEL : MODEL;
    const ask = async (turn: Turn, headers: Record<string, string> = {}): Promise<Answer> => {
      const res = await post(mock.url + pc.path(model, turn.stream), pc.body(model, turn), headers);
      assert.equal(res.status, 200, res.text);
      if (turn.stream) {
        assert.ok(res.headers.get('content-type')?.startsWith(pc.streamType));
        return pc.readStream(res.bytes);
      }
      assert.ok(res.headers.get('content-type')?.startsWith('application/json'));
      return pc.readJson(res.text);
    };

    describe(pc.name, () => {
      for (const stream of [false, true]) {
        const kind = stream ? 'stream' : 'non-stream';
        it(`${kind}: text answer, model echoed, usage`, async () => {
          const a = await ask({ tools: false, toolResultLast: false, stream });
          assert.equal(a.text, mockText(5));
          assert.equal(a.model, model);
          assert.equal(mock.stats().last_request?.model, model); // bedrock: decoded from the path
          assert.equal(a.toolName, null);
          assert.equal(a.finish, pc.textFinish);
          assert.deepEqual(a.usage, { input: 12, cacheRead: 0, output: 5 });
        });

        it(`${kind}: tool call when tools are declared`, async () => {
          const a = await ask({ tools: true, toolResultLast: false, stream });
          assert.equal(a.toolName, WEATHER);
          assert.equal(a.toolId, pc.toolId);
          assert.deepEqual(a.args, { location: 'Paris' });
          assert.equal(a.finish, pc.toolFinish);
          assert.equal(a.text, '');
        });

        it(`${kind}: text after a tool result; cache read in the protocol's convention`, async () => {
          const a = await ask({ tools: true, toolResultLast: true, stream }, { 'x-mock-cache-read-tokens': '4', 'x-mock-chunks': '3' });
          assert.equal(a.toolName, null);
          assert.equal(a.text, mockText(3));
          // Ollama has no cache field and reports only the uncached input.
          assert.deepEqual(a.usage, { input: 12, cacheRead: pc === ollama ? 0 : 4, output: 3 });
        });
      }

      it('mode forces text or tool', async () => {
        const text = await ask({ tools: true, toolResultLast: false, stream: false }, { 'x-mock-mode': 'text' });
        assert.equal(text.text, mockText(5));
        const tool = await ask({ tools: false, toolResultLast: false, stream: false }, { 'x-mock-mode': 'tool' });
        assert.equal(tool.toolName, 'get_weather');
      });

      it('status answers in the protocol error shape with Retry-After', async () => {
        const res = await post(mock.url + pc.path(model, false), pc.body(model, { tools: false, toolResultLast: false, stream: false }), {
          'x-mock-status': '429',
          'x-mock-retry-after': '7',
        });
        assert.equal(res.status, 429);
        assert.equal(res.headers.get('retry-after'), '7');
        const err = JSON.parse(res.text);
        if (pc === openai || pc === responses) assert.equal(err.error.type, 'rate_limit_error');
        if (pc === anthropic) assert.deepEqual([err.type, err.error.type], ['error', 'rate_limit_error']);
        if (pc === gemini) assert.deepEqual([err.error.code, err.error.status], [429, 'RESOURCE_EXHAUSTED']);
        if (pc === bedrock) {
          assert.equal(typeof err.message, 'string');
          assert.match(res.headers.get('x-amzn-errortype') ?? '', /^ThrottlingException/);
        }
        if (pc === ollama) assert.equal(typeof err.error, 'string');
      });
    });
  }

  it('openai stream without include_usage has no usage chunk', async () => {
    const res = await post(mock.url + '/v1/chat/completions', { model: MODEL, stream: true, messages: [{ role: 'user', content: 'hi' }] });
    const chunks = sseJson(res.text);
    for (const c of chunks) {
      assert.equal(c.usage, undefined);
      assert.equal(c.choices.length, 1);
    }
  });

  it('ollama streams by default and not with stream:false', async () => {
    const streamed = await post(mock.url + '/api/chat', { model: MODEL, messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(streamed.headers.get('content-type'), 'application/x-ndjson');
    assert.equal(parseNdjson(streamed.text).length, 6);
  });

  it('vertex paths answer as gemini', async () => {
    const res = await post(`${mock.url}/v1/projects/p/locations/us-central1/publishers/google/models/gem-v:generateContent`, {
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
    });
    assert.equal(res.status, 200);
    assert.equal(JSON.parse(res.text).modelVersion, 'gem-v');
  });

  it('bad requests get a clear 400 or 404 in the protocol shape', async () => {
    const notJson = await post(mock.url + '/v1/messages', '{nope');
    assert.equal(notJson.status, 400);
    assert.equal(JSON.parse(notJson.text).error.type, 'invalid_request_error');
    const noModel = await post(mock.url + '/v1/chat/completions', { messages: [] });
    assert.equal(noModel.status, 400);
    assert.match(JSON.parse(noModel.text).error.message, /model/);
    const noAlt = await post(mock.url + '/v1beta/models/g:streamGenerateContent', { contents: [] });
    assert.equal(noAlt.status, 404);
    assert.match(JSON.parse(noAlt.text).error.message, /alt=sse/);
    const badSetting = await post(mock.url + '/api/chat', { model: MODEL, messages: [] }, { 'x-mock-chunks': 'lots' });
    assert.equal(badSetting.status, 400);
    assert.match(JSON.parse(badSetting.text).error, /chunks/);
    const unknown = await post(mock.url + '/v2/whatever', {});
    assert.equal(unknown.status, 404);
  });
});
