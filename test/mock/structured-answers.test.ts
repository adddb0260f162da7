// The mock answers what a request asks for: a structured-output request (each protocol's own
// field) with JSON valid under the schema, a forced tool choice with a call of that tool whose
// arguments are valid under its input schema. The generator is checked on its own first.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { schemaInstance } from '../../src/mock/schema-instance.js';
import { MOCK_TOOL_ARGUMENTS } from '../../src/mock/content.js';
import { suiteMock } from '../helpers/clients/stack.js';

function valid(schema: Record<string, unknown>, value: unknown): boolean {
  return z.fromJSONSchema(schema as never).safeParse(value).success;
}

const SCHEMAS: Array<[string, Record<string, unknown>]> = [
  [
    'an object with bounds and formats',
    {
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 6 },
        email: { type: 'string', format: 'email' },
        age: { type: 'integer', minimum: 18, maximum: 99 },
        score: { type: 'number', exclusiveMinimum: 0.5 },
        tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, minItems: 2 },
        optional: { type: 'string' },
      },
      required: ['name', 'email', 'age', 'score', 'tags'],
      additionalProperties: false,
    },
  ],
  [
    'refs, unions and nulls',
    {
      $defs: { point: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] } },
      type: 'object',
      properties: { at: { $ref: '#/$defs/point' }, maybe: { anyOf: [{ type: 'null' }, { type: 'string' }] }, kind: { const: 'k' } },
      required: ['at', 'maybe', 'kind'],
    },
  ],
  [
    'allOf merged',
    {
      allOf: [
        { type: 'object', properties: { a: { type: 'boolean' } }, required: ['a'] },
        { properties: { b: { type: 'integer', multipleOf: 5, minimum: 3 } }, required: ['b'] },
      ],
    },
  ],
  ['a type list', { type: ['null', 'array'], items: { type: 'integer' } }],
];

describe('schemaInstance: a minimal value valid under the schema', () => {
  for (const [label, schema] of SCHEMAS) {
    it(label, () => {
      const value = schemaInstance(schema);
      assert.ok(valid(schema, value), `${JSON.stringify(value)} is not valid under ${JSON.stringify(schema)}`);
    });
  }
  it("takes Gemini's capitalised type names", () => {
    assert.deepEqual(schemaInstance({ type: 'OBJECT', properties: { n: { type: 'INTEGER' } }, required: ['n'] }), { n: 0 });
  });
});

const FORECAST = {
  type: 'object',
  properties: { city: { type: 'string' }, days: { type: 'array', items: { type: 'integer', minimum: 1 }, minItems: 1 } },
  required: ['city', 'days'],
  additionalProperties: false,
};
const USER = [{ role: 'user', content: 'Forecast?' }];

/** One request per protocol asking for FORECAST in its own field, and how to read the answer's text. */
const STRUCTURED: Array<[string, string, unknown, (b: any) => string]> = [
  [
    'openai',
    '/v1/chat/completions',
    { model: 'm', messages: USER, response_format: { type: 'json_schema', json_schema: { name: 'f', schema: FORECAST, strict: true } } },
    (b) => b.choices[0].message.content,
  ],
  [
    'responses',
    '/v1/responses',
    { model: 'm', input: 'Forecast?', text: { format: { type: 'json_schema', name: 'f', schema: FORECAST } } },
    (b) => b.output[0].content[0].text,
  ],
  [
    'anthropic',
    '/v1/messages',
    { model: 'm', max_tokens: 100, messages: USER, output_config: { format: { type: 'json_schema', schema: FORECAST } } },
    (b) => b.content[0].text,
  ],
  [
    'gemini',
    '/v1beta/models/m:generateContent',
    { contents: [{ parts: [{ text: 'Forecast?' }] }], generationConfig: { responseMimeType: 'application/json', responseJsonSchema: FORECAST } },
    (b) => b.candidates[0].content.parts[0].text,
  ],
  [
    'bedrock',
    '/model/m/converse',
    {
      messages: [{ role: 'user', content: [{ text: 'Forecast?' }] }],
      outputConfig: { textFormat: { type: 'json_schema', structure: { jsonSchema: { schema: JSON.stringify(FORECAST) } } } },
    },
    (b) => b.output.message.content[0].text,
  ],
  ['ollama', '/api/chat', { model: 'm', stream: false, messages: USER, format: FORECAST }, (b) => b.message.content],
];

const mock = suiteMock();

async function post(path: string, body: unknown): Promise<any> {
  const res = await fetch(mock.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  assert.equal(res.status, 200, await res.clone().text());
  return res.json();
}

describe('the mock answers structured output with JSON valid under the schema', () => {
  for (const [protocol, path, body, textOf] of STRUCTURED) {
    it(protocol, async () => {
      const text = textOf(await post(path, body));
      assert.ok(valid(FORECAST, JSON.parse(text)), text);
    });
  }
  it('JSON mode (openai json_object, ollama "json") answers a JSON object', async () => {
    const chat = await post('/v1/chat/completions', { model: 'm', messages: USER, response_format: { type: 'json_object' } });
    assert.equal(typeof JSON.parse(chat.choices[0].message.content), 'object');
    const ollama = await post('/api/chat', { model: 'm', stream: false, messages: USER, format: 'json' });
    assert.equal(typeof JSON.parse(ollama.message.content), 'object');
  });
});

describe('a forced tool choice is a call of that tool, with arguments valid under its schema', () => {
  const tools = [
    { name: 'get_weather', input_schema: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] } },
    { name: 'extract', input_schema: FORECAST },
  ];
  it('anthropic tool_choice {type: tool}', async () => {
    const b = await post('/v1/messages', { model: 'm', max_tokens: 100, messages: USER, tools, tool_choice: { type: 'tool', name: 'extract' } });
    assert.equal(b.content[0].name, 'extract');
    assert.ok(valid(FORECAST, b.content[0].input), JSON.stringify(b.content[0].input));
  });
  it('openai tool_choice {type: function}; the weather tool still gets its usual arguments', async () => {
    const fns = tools.map((t) => ({ type: 'function', function: { name: t.name, parameters: t.input_schema } }));
    const forced = await post('/v1/chat/completions', {
      model: 'm',
      messages: USER,
      tools: fns,
      tool_choice: { type: 'function', function: { name: 'extract' } },
    });
    const call = forced.choices[0].message.tool_calls[0];
    assert.equal(call.function.name, 'extract');
    assert.ok(valid(FORECAST, JSON.parse(call.function.arguments)));
    const auto = await post('/v1/chat/completions', { model: 'm', messages: USER, tools: fns });
    assert.equal(auto.choices[0].message.tool_calls[0].function.arguments, MOCK_TOOL_ARGUMENTS);
  });
  it('gemini mode ANY with one allowed function', async () => {
    const b = await post('/v1beta/models/m:generateContent', {
      contents: [{ parts: [{ text: 'Forecast?' }] }],
      tools: [{ functionDeclarations: tools.map((t) => ({ name: t.name, parameters: t.input_schema })) }],
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['extract'] } },
    });
    const call = b.candidates[0].content.parts[0].functionCall;
    assert.equal(call.name, 'extract');
    assert.ok(valid(FORECAST, call.args));
  });
});
