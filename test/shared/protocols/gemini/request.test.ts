import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { geminiCodec } from '../../../../src/shared/protocols/gemini/codec.js';
import { GatewayError } from '../../../../src/shared/errors.js';
import type { ModelRequest } from '../../../../src/shared/model/types.js';
import { assistant, image, text, toolCall, toolResult, user } from '../../../helpers/model-turns.js';

const route = { pathModel: 'gemini-pool', pathStream: true };

// Shaped like what @google/genai sends (camelCase, Type enums in capitals).
const sdkRequest = {
  contents: [
    {
      role: 'user',
      parts: [
        { text: 'Weather in Paris?' },
        { inlineData: { mimeType: 'image/png', data: 'iVBORw0K' } },
        { inlineData: { mimeType: 'audio/wav', data: 'UklG' } },
      ],
    },
    {
      role: 'model',
      parts: [
        { text: 'Checking.' },
        { functionCall: { name: 'get_weather', args: { city: 'Paris' } } },
        { functionCall: { name: 'get_weather', args: { city: 'Lyon' } } },
      ],
    },
    {
      role: 'user',
      parts: [
        { functionResponse: { name: 'get_weather', response: { temp: 18 } } },
        { functionResponse: { name: 'get_weather', response: { error: 'no data' } } },
        { text: 'Thanks' },
      ],
    },
  ],
  systemInstruction: { parts: [{ text: 'Be brief.' }, { text: 'Use tools.' }] },
  tools: [
    {
      functionDeclarations: [
        {
          name: 'get_weather',
          description: 'Weather',
          parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' }, type: { type: 'STRING', enum: ['a'] } }, required: ['city'] },
        },
      ],
    },
    { googleSearch: {} },
  ],
  toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] } },
  generationConfig: { maxOutputTokens: 200, temperature: 1.5, topP: 0.8, topK: 40, stopSequences: ['END'], thinkingConfig: { thinkingBudget: 0 } },
  safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
};

describe('gemini decodeRequest', () => {
  it('reads the modeled subset: model and stream from the path, ids synthesized and paired by name', () => {
    assert.deepEqual(geminiCodec.decodeRequest(sdkRequest, route), {
      model: 'gemini-pool',
      system: 'Be brief.\nUse tools.',
      messages: [
        user(
          text('Weather in Paris?'),
          image({ data: 'iVBORw0K', mediaType: 'image/png' }),
          { type: 'unsupported', what: 'inlineData (audio/wav)' }, // refused on a cross-protocol hop
        ),
        assistant(text('Checking.'), toolCall('call_0', 'get_weather', '{"city":"Paris"}'), toolCall('call_1', 'get_weather', '{"city":"Lyon"}')),
        {
          role: 'tool',
          content: [
            { type: 'tool_result', toolCallId: 'call_0', name: 'get_weather', content: '{"temp":18}', isError: false },
            { type: 'tool_result', toolCallId: 'call_1', name: 'get_weather', content: 'no data', isError: true },
          ],
        },
        user(text('Thanks')),
      ],
      tools: [
        {
          name: 'get_weather',
          description: 'Weather',
          parameters: { type: 'object', properties: { city: { type: 'string' }, type: { type: 'string', enum: ['a'] } }, required: ['city'] },
        },
      ],
      toolChoice: { type: 'tool', name: 'get_weather' },
      maxTokens: 200,
      temperature: 1.5,
      topP: 0.8,
      stop: ['END'],
      stream: true,
      reasoning: { budgetTokens: 0 }, // thinkingBudget 0: thinking off
    } satisfies ModelRequest);
    assert.equal(geminiCodec.requestedModel(sdkRequest, route), 'gemini-pool');
    assert.equal(geminiCodec.requestedStream(sdkRequest, route), true);
    assert.equal(geminiCodec.requestedStream(sdkRequest, { pathModel: 'x' }), false);
  });

  it('reads the snake_case spelling curl examples use', () => {
    const req = geminiCodec.decodeRequest(
      {
        system_instruction: { parts: [{ text: 'S' }] },
        contents: [{ parts: [{ text: 'hi' }, { inline_data: { mime_type: 'image/jpeg', data: '/9j/' } }] }],
        generation_config: { max_output_tokens: 5, stop_sequences: ['x'] },
        tools: [{ function_declarations: [{ name: 'f', parameters_json_schema: { type: 'object', additionalProperties: false } }] }],
        tool_config: { function_calling_config: { mode: 'NONE' } },
      },
      { pathModel: 'm' },
    );
    assert.equal(req.system, 'S');
    assert.deepEqual(req.messages, [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'hi' },
          { type: 'image', data: '/9j/', mediaType: 'image/jpeg' },
        ],
      },
    ]);
    assert.equal(req.maxTokens, 5);
    assert.deepEqual(req.stop, ['x']);
    assert.deepEqual(req.tools, [{ name: 'f', parameters: { type: 'object', additionalProperties: false } }]);
    assert.deepEqual(req.toolChoice, { type: 'none' });
  });

  it('keeps ids the caller sent and pairs responses by them', () => {
    const req = geminiCodec.decodeRequest(
      {
        contents: [
          { role: 'model', parts: [{ functionCall: { id: 'a1', name: 'f', args: {} } }, { functionCall: { name: 'f' } }] },
          {
            role: 'user',
            parts: [{ functionResponse: { name: 'f', response: { content: 'second' } } }, { functionResponse: { id: 'a1', name: 'f', response: {} } }],
          },
        ],
      },
      { pathModel: 'm' },
    );
    assert.deepEqual(
      req.messages[1]!.content.map((p) => p.type === 'tool_result' && [p.toolCallId, p.content]),
      [
        ['call_0', 'second'],
        ['a1', '{}'],
      ],
    );
  });

  for (const [name, body, r, needle] of [
    ['a body with no model in the path', { contents: [] }, {}, 'path'],
    ['contents that are not an array', { contents: {} }, route, 'contents'],
    ['an unknown role', { contents: [{ role: 'system', parts: [] }] }, route, 'contents[0].role'],
    ['temperature above 2', { contents: [], generationConfig: { temperature: 2.5 } }, route, 'temperature'],
    ['maxOutputTokens of 0', { contents: [], generationConfig: { maxOutputTokens: 0 } }, route, 'maxOutputTokens'],
    ['an unknown calling mode', { contents: [], toolConfig: { functionCallingConfig: { mode: 'SOMETIMES' } } }, route, 'mode'],
    ['functionCall args that are not an object', { contents: [{ role: 'model', parts: [{ functionCall: { name: 'f', args: [1] } }] }] }, route, 'args'],
  ] as const) {
    it(`rejects ${name} with invalid_request`, () => {
      assert.throws(
        () => geminiCodec.decodeRequest(body, r),
        (e: unknown) => e instanceof GatewayError && e.kind === 'invalid_request' && e.message.includes(needle),
      );
    });
  }
});

describe('gemini encodeRequest', () => {
  const model: ModelRequest = {
    model: 'pool',
    system: 'Be brief.',
    messages: [
      user(text('hi'), image({ url: 'data:image/png;base64,iVBOR' }), image({ url: 'gs://b/cat.jpg', mediaType: 'image/jpeg' })),
      assistant(toolCall('toolu_1', 'get_weather', '{"city":"Paris"}'), toolCall('toolu_2', 'get_time', '')),
      toolResult('toolu_1', '{"temp":18}'),
      toolResult('toolu_2', '12:00'),
      user(text('ok')),
    ],
    tools: [{ name: 'get_weather', description: 'W', parameters: { type: 'object', additionalProperties: false } }],
    toolChoice: { type: 'required' },
    maxTokens: 64,
    temperature: 1.2,
    stop: ['Z'],
    stream: true,
  };

  it('writes generateContent with names found from the earlier calls and merged turns', () => {
    const enc = geminiCodec.encodeRequest(model, 'gemini-2.5-flash');
    assert.equal(enc.path, '/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    assert.equal(geminiCodec.encodeRequest({ ...model, stream: false }, 'g').path, '/models/g:generateContent');
    assert.deepEqual(JSON.parse(enc.body), {
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'hi' },
            { inlineData: { mimeType: 'image/png', data: 'iVBOR' } },
            { fileData: { mimeType: 'image/jpeg', fileUri: 'gs://b/cat.jpg' } },
          ],
        },
        {
          role: 'model',
          parts: [
            { functionCall: { id: 'toolu_1', name: 'get_weather', args: { city: 'Paris' } } },
            { functionCall: { id: 'toolu_2', name: 'get_time', args: {} } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { id: 'toolu_1', name: 'get_weather', response: { temp: 18 } } },
            { functionResponse: { id: 'toolu_2', name: 'get_time', response: { content: '12:00' } } },
            { text: 'ok' },
          ],
        },
      ],
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      tools: [{ functionDeclarations: [{ name: 'get_weather', description: 'W', parametersJsonSchema: { type: 'object', additionalProperties: false } }] }],
      toolConfig: { functionCallingConfig: { mode: 'ANY' } },
      generationConfig: { maxOutputTokens: 64, temperature: 1.2, stopSequences: ['Z'] },
    });
  });

  it('refuses a tool result whose call is not in the request: Gemini needs the name', () => {
    const orphan: ModelRequest = {
      model: 'p',
      stream: false,
      messages: [toolResult('nope', 'x')],
    };
    assert.throws(
      () => geminiCodec.encodeRequest(orphan, 'g'),
      (e: unknown) => e instanceof GatewayError && e.kind === 'invalid_request' && /nope/.test(e.message),
    );
    const named: ModelRequest = {
      ...orphan,
      messages: [toolResult('nope', 'x', { name: 'f' })],
    };
    assert.equal(JSON.parse(geminiCodec.encodeRequest(named, 'g').body).contents[0].parts[0].functionResponse.name, 'f');
  });

  it('refuses out-of-range sampling instead of clamping', () => {
    assert.throws(
      () => geminiCodec.encodeRequest({ ...model, topP: 1.5 }, 'g'),
      (e: unknown) => e instanceof GatewayError && /topP/.test(e.message),
    );
  });

  it('passes the caller body through unchanged: the model is in the path', () => {
    const raw = '{"contents": [{"parts":[{"text":"hi"}]}], "x": 1}';
    assert.equal(geminiCodec.passthroughBody(raw, JSON.parse(raw), 'gemini-2.5-pro', true), raw);
    assert.equal(geminiCodec.upstreamPath('gemini-2.5-pro', true), '/models/gemini-2.5-pro:streamGenerateContent?alt=sse');
  });
});
