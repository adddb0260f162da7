// The request settings each codec writes in its lane's own fields (structured output,
// reasoning, cache markers, tool choice and parallel calls), the rules of docs/compatibility.md
// one by one, and the JSON-mode output tool read back as text in the answer and its stream.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CODECS } from '../../../src/shared/protocols/index.js';
import type { ModelRequest, ProtocolName, StreamEvent } from '../../../src/shared/model/types.js';
import { TranslationRefused } from '../../../src/shared/protocols/refusal.js';
import { anthropicOutputSchema } from '../../../src/shared/protocols/anthropic/output-schema.js';
import { fitsStrictMode } from '../../../src/shared/protocols/openai/strict-schema.js';
import { openApiToJsonSchema } from '../../../src/shared/protocols/gemini/schema-types.js';
import { JSON_OUTPUT_TOOL_NAME } from '../../../src/shared/protocols/json-output-tool.js';
import { withoutLiterals } from '../../helpers/stream-events.js';
import { sse } from './anthropic/fixtures.js';
import { concat, eventFrame } from './bedrock/fixtures.js';

const CLOSED = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false };
const TOOLS = [
  { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
  { name: 'get_time', parameters: { type: 'object', properties: {} } },
];

function req(over: Partial<ModelRequest> = {}): ModelRequest {
  return { model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], stream: false, ...over };
}

function body(target: ProtocolName, r: ModelRequest, model = 'up'): Record<string, any> {
  return JSON.parse(CODECS[target].encodeRequest(r, model).body) as Record<string, any>;
}

function refused(target: ProtocolName, r: ModelRequest, what: RegExp): void {
  assert.throws(
    () => CODECS[target].encodeRequest(r, 'up'),
    (e: unknown) => e instanceof TranslationRefused && what.test(e.message),
  );
}

describe("structured output in each lane's own field", () => {
  const schema = req({ responseFormat: { type: 'json_schema', schema: CLOSED } });
  it('openai: response_format json_schema, named "response" when the caller named none, strict when the schema fits', () => {
    assert.deepEqual(body('openai', schema).response_format, { type: 'json_schema', json_schema: { name: 'response', schema: CLOSED, strict: true } });
    const open = { type: 'object', properties: { a: { type: 'string' } } };
    assert.equal(body('openai', req({ responseFormat: { type: 'json_schema', schema: open } })).response_format.json_schema.strict, false);
    assert.deepEqual(body('openai', req({ responseFormat: { type: 'json' } })).response_format, { type: 'json_object' });
  });
  it('responses: text.format, inline', () => {
    assert.deepEqual(body('responses', schema).text, { format: { type: 'json_schema', name: 'response', schema: CLOSED, strict: true } });
  });
  it('anthropic: output_config.format in the vendor subset; JSON mode is a forced output tool', () => {
    const loose = { type: 'object', properties: { n: { type: 'string', minLength: 3, format: 'email' }, k: { type: 'integer', minimum: 1 } } };
    assert.deepEqual(body('anthropic', req({ responseFormat: { type: 'json_schema', schema: loose } })).output_config, {
      format: {
        type: 'json_schema',
        schema: {
          type: 'object',
          additionalProperties: false,
          properties: { n: { type: 'string', format: 'email', description: '{minLength: 3}' }, k: { type: 'integer', description: '{minimum: 1}' } },
        },
      },
    });
    const json = body('anthropic', req({ responseFormat: { type: 'json' } }));
    assert.deepEqual(
      json.tools.map((t: any) => t.name),
      [JSON_OUTPUT_TOOL_NAME],
    );
    assert.deepEqual(json.tool_choice, { type: 'tool', name: JSON_OUTPUT_TOOL_NAME });
    const withTools = body('anthropic', req({ responseFormat: { type: 'json' }, tools: TOOLS }));
    assert.deepEqual(withTools.tool_choice, { type: 'any' }, 'a caller tool or the output tool');
    const thinking = body('anthropic', req({ responseFormat: { type: 'json' }, reasoning: { effort: 'low' } }));
    assert.deepEqual(thinking.tool_choice, { type: 'auto' }, 'Anthropic refuses a forced tool while thinking');
  });
  it('gemini: responseMimeType with responseJsonSchema; JSON mode is the mime type alone', () => {
    assert.deepEqual(body('gemini', schema).generationConfig, { responseMimeType: 'application/json', responseJsonSchema: CLOSED });
    assert.deepEqual(body('gemini', req({ responseFormat: { type: 'json' } })).generationConfig, { responseMimeType: 'application/json' });
  });
  it('bedrock: outputConfig.textFormat with the schema as JSON text; JSON mode is a forced output tool', () => {
    const b = body('bedrock', req({ responseFormat: { type: 'json_schema', schema: CLOSED, name: 'x' } }));
    assert.deepEqual(b.outputConfig.textFormat.type, 'json_schema');
    assert.deepEqual(JSON.parse(b.outputConfig.textFormat.structure.jsonSchema.schema), CLOSED);
    assert.equal(b.outputConfig.textFormat.structure.jsonSchema.name, 'x');
    assert.deepEqual(body('bedrock', req({ responseFormat: { type: 'json' } })).toolConfig.toolChoice, { tool: { name: JSON_OUTPUT_TOOL_NAME } });
  });
  it('ollama: format', () => {
    assert.deepEqual(body('ollama', schema).format, CLOSED);
    assert.equal(body('ollama', req({ responseFormat: { type: 'json' } })).format, 'json');
  });
});

describe('schema dialects', () => {
  it('strict fit: every object closed with every property required, nested ones too', () => {
    assert.equal(fitsStrictMode(CLOSED), true);
    assert.equal(fitsStrictMode({ ...CLOSED, required: [] }), false);
    assert.equal(fitsStrictMode({ type: 'array', items: { type: 'object', properties: {} } }), false);
    assert.equal(fitsStrictMode({ $defs: { x: CLOSED }, anyOf: [{ $ref: '#/$defs/x' }, { type: 'null' }] }), true);
  });
  it("Gemini's OpenAPI subset read as JSON Schema: lower-case types, nullable as a null type, hints dropped", () => {
    assert.deepEqual(
      openApiToJsonSchema({
        type: 'OBJECT',
        propertyOrdering: ['type'],
        properties: { type: { type: 'STRING', nullable: true, format: 'enum', enum: ['a'] } },
        required: ['type'],
      }),
      { type: 'object', properties: { type: { type: ['string', 'null'], enum: ['a'] } }, required: ['type'] },
    );
  });
  it('the Anthropic subset keeps $defs and $ref, turns oneOf into anyOf, closes nested objects', () => {
    assert.deepEqual(anthropicOutputSchema({ $defs: { p: { type: 'object', properties: {} } }, oneOf: [{ $ref: '#/$defs/p' }, { type: 'null' }] }), {
      $defs: { p: { type: 'object', properties: {}, additionalProperties: false } },
      anyOf: [{ $ref: '#/$defs/p' }, { type: 'null' }],
    });
  });
});

describe("reasoning settings in each lane's own fields", () => {
  it('openai and responses: a level (a budget by the table, off as none, on as medium); the summary on Responses only', () => {
    assert.equal(body('openai', req({ reasoning: { budgetTokens: 20000 } })).reasoning_effort, 'high');
    assert.equal(body('openai', req({ reasoning: { budgetTokens: 0 } })).reasoning_effort, 'none');
    assert.equal(body('openai', req({ reasoning: {} })).reasoning_effort, 'medium');
    const capped = body('openai', req({ reasoning: { effort: 'low' }, maxTokens: 300 }));
    assert.deepEqual([capped.max_completion_tokens, capped.max_tokens], [300, undefined], 'reasoning models take max_completion_tokens');
    assert.equal(body('openai', req({ maxTokens: 300 })).max_tokens, 300);
    assert.deepEqual(body('responses', req({ reasoning: { effort: 'xhigh', summary: 'detailed' } })).reasoning, { effort: 'xhigh', summary: 'detailed' });
    assert.deepEqual(body('responses', req({ reasoning: { effort: 'low', summary: 'none' } })).reasoning, { effort: 'low' });
  });
  it('anthropic: a budget is enabled (floor 1024, max_tokens grown past it), a level adaptive with output_config.effort', () => {
    assert.deepEqual(body('anthropic', req({ reasoning: { budgetTokens: 500 }, maxTokens: 2000 })).thinking, { type: 'enabled', budget_tokens: 1024 });
    const grown = body('anthropic', req({ reasoning: { budgetTokens: 8000 }, maxTokens: 1000 }));
    assert.deepEqual([grown.thinking.budget_tokens, grown.max_tokens], [8000, 9000]);
    const adaptive = body('anthropic', req({ reasoning: { effort: 'minimal', summary: 'none' } }));
    assert.deepEqual([adaptive.thinking, adaptive.output_config], [{ type: 'adaptive', display: 'omitted' }, { effort: 'low' }]);
    assert.deepEqual(body('anthropic', req({ reasoning: { effort: 'none' } })).thinking, { type: 'disabled' });
  });
  it('gemini: always a thinkingBudget (a level by the table), -1 for on, 0 for off', () => {
    const cfg = (r: ModelRequest['reasoning']): unknown => body('gemini', req({ reasoning: r })).generationConfig.thinkingConfig;
    assert.deepEqual(cfg({ budgetTokens: 3000, summary: 'auto' }), { thinkingBudget: 3000, includeThoughts: true });
    assert.deepEqual(cfg({ effort: 'max' }), { thinkingBudget: 32768 });
    assert.deepEqual(cfg({}), { thinkingBudget: -1 });
    assert.deepEqual(cfg({ effort: 'none' }), { thinkingBudget: 0 });
  });
  it("bedrock: Claude's thinking (with outputConfig.effort for a level), Nova's reasoningConfig, by the model id's family", () => {
    const claude = body('bedrock', req({ reasoning: { effort: 'high' } }), 'us.anthropic.claude-sonnet-4-5-v1:0');
    assert.deepEqual([claude.additionalModelRequestFields, claude.outputConfig], [{ thinking: { type: 'adaptive' } }, { effort: 'high' }]);
    const budget = body('bedrock', req({ reasoning: { budgetTokens: 6000 } }), 'anthropic.claude-opus-4-1');
    assert.deepEqual(
      [budget.additionalModelRequestFields, budget.inferenceConfig],
      [{ thinking: { type: 'enabled', budget_tokens: 6000 } }, { maxTokens: 10096 }],
    );
    const nova = body('bedrock', req({ reasoning: { budgetTokens: 9000 } }), 'us.amazon.nova-2-lite-v1:0');
    assert.deepEqual(nova.additionalModelRequestFields, { reasoningConfig: { type: 'enabled', maxReasoningEffort: 'medium' } });
    assert.equal(nova.outputConfig, undefined);
  });
  it('ollama: think as a level, true when on at the default, false when off', () => {
    assert.equal(body('ollama', req({ reasoning: { effort: 'xhigh' } })).think, 'high');
    assert.equal(body('ollama', req({ reasoning: {} })).think, true);
    assert.equal(body('ollama', req({ reasoning: { budgetTokens: 0 } })).think, false);
  });
});

describe('prompt-cache markers', () => {
  const marked = req({
    system: 'S',
    systemCache: {},
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Doc', cache: { ttl: '1h' } },
          { type: 'text', text: 'Q' },
        ],
      },
    ],
    tools: [{ name: 'get_weather', parameters: { type: 'object' }, cache: {} }],
  });
  it('anthropic: cache_control on the system block, the part and the tool', () => {
    const b = body('anthropic', marked);
    assert.deepEqual(b.system, [{ type: 'text', text: 'S', cache_control: { type: 'ephemeral' } }]);
    assert.deepEqual(b.messages[0].content[0].cache_control, { type: 'ephemeral', ttl: '1h' });
    assert.deepEqual(b.tools[0].cache_control, { type: 'ephemeral' });
  });
  it('bedrock: a cachePoint after each', () => {
    const b = body('bedrock', marked);
    assert.deepEqual(b.system, [{ text: 'S' }, { cachePoint: { type: 'default' } }]);
    assert.deepEqual(b.messages[0].content, [{ text: 'Doc' }, { cachePoint: { type: 'default', ttl: '1h' } }, { text: 'Q' }]);
    assert.deepEqual(b.toolConfig.tools[1], { cachePoint: { type: 'default' } });
  });
  it('dropped towards the protocols that cache by themselves', () => {
    for (const target of ['openai', 'responses', 'gemini', 'ollama'] as const) {
      assert.doesNotMatch(CODECS[target].encodeRequest(marked, 'up').body, /cache_control|cachePoint|prompt_cache_breakpoint/, target);
    }
  });
  it("anthropic's top-level cache_control marks the last block; an OpenAI breakpoint reads as a marker", () => {
    const a = CODECS.anthropic.decodeRequest(
      { model: 'm', max_tokens: 5, cache_control: { type: 'ephemeral' }, messages: [{ role: 'user', content: 'hi' }] },
      {},
    );
    assert.deepEqual(a.messages[0]!.content[0], { type: 'text', text: 'hi', cache: {} });
    const o = CODECS.openai.decodeRequest(
      { model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi', prompt_cache_breakpoint: { mode: 'explicit' } }] }] },
      {},
    );
    assert.deepEqual(o.messages[0]!.content[0], { type: 'text', text: 'hi', cache: {} });
  });
});

describe('tool choice and parallel tool calls where the lane has no setting', () => {
  it('ollama: none sends no tools, a named tool only that tool, required among several is refused, required with one is that tool', () => {
    assert.equal(body('ollama', req({ tools: TOOLS, toolChoice: { type: 'none' } })).tools, undefined);
    assert.deepEqual(
      body('ollama', req({ tools: TOOLS, toolChoice: { type: 'tool', name: 'get_time' } })).tools.map((t: any) => t.function.name),
      ['get_time'],
    );
    refused('ollama', req({ tools: TOOLS, toolChoice: { type: 'required' } }), /tool_choice required/);
    assert.equal(body('ollama', req({ tools: TOOLS.slice(0, 1), toolChoice: { type: 'required' } })).tools.length, 1);
  });
  it('a one-call limit: written where the lane has one, refused where it cannot be kept, dropped with one tool or a named one', () => {
    assert.equal(body('openai', req({ tools: TOOLS, parallelToolCalls: false })).parallel_tool_calls, false);
    assert.equal(body('openai', req({ parallelToolCalls: false })).parallel_tool_calls, undefined, 'OpenAI refuses it without tools');
    assert.deepEqual(body('anthropic', req({ tools: TOOLS, parallelToolCalls: false })).tool_choice, { type: 'auto', disable_parallel_tool_use: true });
    for (const target of ['gemini', 'bedrock', 'ollama'] as const) {
      refused(target, req({ tools: TOOLS, parallelToolCalls: false }), /parallel_tool_calls false/);
      assert.ok(body(target, req({ tools: TOOLS, parallelToolCalls: false, toolChoice: { type: 'tool', name: 'get_time' } })));
      assert.ok(body(target, req({ tools: TOOLS.slice(0, 1), parallelToolCalls: false, toolChoice: { type: 'required' } })));
    }
  });
});

describe("the JSON-mode output tool is read back as the answer's text", () => {
  const input = { answer: 'ok', n: 1 };
  it('anthropic, whole and streamed; the tool_use stop is a stop', () => {
    const whole = CODECS.anthropic.decodeResponse({
      id: 'm',
      model: 'c',
      content: [{ type: 'tool_use', id: 't', name: JSON_OUTPUT_TOOL_NAME, input }],
      stop_reason: 'tool_use',
      usage: { input_tokens: 1, output_tokens: 1 },
    });
    assert.deepEqual([whole.content, whole.finishReason], [[{ type: 'text', text: JSON.stringify(input) }], 'stop']);
    const stream = [
      sse('message_start', { type: 'message_start', message: { id: 'm', model: 'c', usage: { input_tokens: 1, output_tokens: 0 } } }),
      sse('content_block_start', {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 't', name: JSON_OUTPUT_TOOL_NAME, input: {} },
      }),
      sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"answer":' } }),
      sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '"ok","n":1}' } }),
      sse('content_block_stop', { type: 'content_block_stop', index: 0 }),
      sse('message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 3 } }),
      sse('message_stop', { type: 'message_stop' }),
    ].join('');
    const d = CODECS.anthropic.createStreamDecoder();
    const events = withoutLiterals([...d.push(new TextEncoder().encode(stream)), ...d.finish()]);
    assert.deepEqual(textAndFinish(events), [JSON.stringify(input), 'stop']);
  });
  it('bedrock, whole and streamed', () => {
    const whole = CODECS.bedrock.decodeResponse({
      output: { message: { role: 'assistant', content: [{ toolUse: { toolUseId: 't', name: JSON_OUTPUT_TOOL_NAME, input } }] } },
      stopReason: 'tool_use',
      usage: { inputTokens: 1, outputTokens: 1 },
    });
    assert.deepEqual([whole.content, whole.finishReason], [[{ type: 'text', text: JSON.stringify(input) }], 'stop']);
    const frames = concat([
      eventFrame('messageStart', { role: 'assistant' }),
      eventFrame('contentBlockStart', { contentBlockIndex: 0, start: { toolUse: { toolUseId: 't', name: JSON_OUTPUT_TOOL_NAME } } }),
      eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { toolUse: { input: '{"answer":"ok",' } } }),
      eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { toolUse: { input: '"n":1}' } } }),
      eventFrame('contentBlockStop', { contentBlockIndex: 0 }),
      eventFrame('messageStop', { stopReason: 'tool_use' }),
      eventFrame('metadata', { usage: { inputTokens: 1, outputTokens: 3 }, metrics: { latencyMs: 1 } }),
    ]);
    const d = CODECS.bedrock.createStreamDecoder();
    const events = withoutLiterals([...d.push(frames), ...d.finish()]);
    assert.deepEqual(textAndFinish(events), [JSON.stringify(input), 'stop']);
  });
});

function textAndFinish(events: StreamEvent[]): [string, string | undefined] {
  assert.ok(!events.some((e) => e.type === 'block_start' && e.kind === 'tool_call'), 'no tool block reaches the caller');
  const text = events.map((e) => (e.type === 'text_delta' ? e.text : '')).join('');
  const finish = events.find((e) => e.type === 'finish');
  return [text, finish?.type === 'finish' ? finish.reason : undefined];
}
