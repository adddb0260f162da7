import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bedrockCodec } from '../../../../src/shared/protocols/bedrock/codec.js';
import { GatewayError } from '../../../../src/shared/errors.js';
import { TranslationRefused } from '../../../../src/shared/protocols/refusal.js';
import type { ModelRequest } from '../../../../src/shared/model/types.js';
import { assistant, image, reasoning, text, toolCall, toolResult, user } from '../../../helpers/model-turns.js';

const route = { pathModel: 'anthropic.claude-3-5-sonnet-20240620-v1:0', pathStream: false };

// Shaped like what @aws-sdk/client-bedrock-runtime sends for Converse (blobs as base64).
const sdkRequest = {
  messages: [
    {
      role: 'user',
      content: [
        { text: 'Weather in Paris?' },
        { image: { format: 'png', source: { bytes: 'iVBORw0K' } } },
        { document: { format: 'txt', name: 'd', source: { bytes: 'aGk=' } } },
      ],
    },
    {
      role: 'assistant',
      content: [
        { reasoningContent: { reasoningText: { text: 'hmm', signature: 's' } } },
        { text: 'Checking.' },
        { toolUse: { toolUseId: 'tooluse_1', name: 'get_weather', input: { city: 'Paris' } } },
      ],
    },
    {
      role: 'user',
      content: [
        { toolResult: { toolUseId: 'tooluse_1', content: [{ json: { temp: 18 } }, { text: ' sunny' }], status: 'success' } },
        { cachePoint: { type: 'default' } },
        { text: 'Thanks' },
      ],
    },
  ],
  system: [{ text: 'Be brief.' }, { cachePoint: { type: 'default' } }, { text: 'Use tools.' }],
  inferenceConfig: { maxTokens: 512, temperature: 0.3, topP: 0.9, stopSequences: ['END'] },
  toolConfig: {
    tools: [
      { toolSpec: { name: 'get_weather', description: 'Weather', inputSchema: { json: { type: 'object', properties: { city: { type: 'string' } } } } } },
      { cachePoint: { type: 'default' } },
    ],
    toolChoice: { any: {} },
  },
  additionalModelRequestFields: { top_k: 40 },
  guardrailConfig: { guardrailIdentifier: 'g', guardrailVersion: '1' },
};

describe('bedrock decodeRequest', () => {
  it('reads the modeled subset: model and stream from the path; cache points mark what they follow', () => {
    assert.deepEqual(bedrockCodec.decodeRequest(sdkRequest, route), {
      model: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
      system: 'Be brief.\nUse tools.',
      systemCache: {},
      messages: [
        user(text('Weather in Paris?'), image({ data: 'iVBORw0K', mediaType: 'image/png' }), {
          type: 'file',
          data: 'aGk=',
          mediaType: 'text/plain',
          name: 'd',
        }),
        assistant(reasoning('bedrock', 'hmm', { signature: 's' }), text('Checking.'), toolCall('tooluse_1', 'get_weather', '{"city":"Paris"}')),
        toolResult('tooluse_1', '{"temp":18} sunny', { cache: {} }),
        user(text('Thanks')),
      ],
      tools: [{ name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, cache: {} }],
      toolChoice: { type: 'required' },
      maxTokens: 512,
      temperature: 0.3,
      topP: 0.9,
      stop: ['END'],
      stream: false,
    } satisfies ModelRequest);
    assert.equal(bedrockCodec.requestedModel(sdkRequest, route), route.pathModel);
    assert.equal(bedrockCodec.requestedStream(sdkRequest, { ...route, pathStream: true }), true);
  });

  for (const [name, body, r, needle] of [
    ['a body with no model in the path', { messages: [] }, {}, 'path'],
    ['messages that are not an array', { messages: 'x' }, route, 'messages'],
    ['a system role message', { messages: [{ role: 'system', content: [] }] }, route, 'messages[0].role'],
    ['temperature above 1', { messages: [], inferenceConfig: { temperature: 1.2 } }, route, 'temperature'],
    ['a negative maxTokens', { messages: [], inferenceConfig: { maxTokens: -1 } }, route, 'maxTokens'],
    ['an unknown toolChoice', { messages: [], toolConfig: { tools: [], toolChoice: { some: {} } } }, route, 'toolChoice'],
    ['a bad toolResult status', { messages: [{ role: 'user', content: [{ toolResult: { toolUseId: 't', content: [], status: 'meh' } }] }] }, route, 'status'],
    ['an image without bytes or format', { messages: [{ role: 'user', content: [{ image: { source: {} } }] }] }, route, 'format'],
  ] as const) {
    it(`rejects ${name} with invalid_request`, () => {
      assert.throws(
        () => bedrockCodec.decodeRequest(body, r),
        (e: unknown) => e instanceof GatewayError && e.kind === 'invalid_request' && e.message.includes(needle),
      );
    });
  }
});

describe('bedrock encodeRequest', () => {
  const model: ModelRequest = {
    model: 'pool',
    system: 'Be brief.',
    messages: [
      user(text('hi'), image({ url: 'data:image/jpeg;base64,/9j/' })),
      assistant(text(''), toolCall('call_1', 'f', '{"a":[1]}')),
      toolResult('call_1', 'bad', { isError: true }),
      user(text('again')),
    ],
    tools: [{ name: 'f', description: 'F', parameters: { type: 'object' } }],
    toolChoice: { type: 'tool', name: 'f' },
    maxTokens: 100,
    temperature: 0,
    stop: ['S'],
    stream: true,
  };

  it('writes Converse with alternating turns and the model id encoded in the path', () => {
    const enc = bedrockCodec.encodeRequest(model, 'us.anthropic.claude-3-7-sonnet-20250219-v1:0');
    assert.equal(enc.path, '/model/us.anthropic.claude-3-7-sonnet-20250219-v1%3A0/converse-stream');
    assert.equal(
      bedrockCodec.upstreamPath('arn:aws:bedrock:us-east-1:1:inference-profile/x', false),
      '/model/arn%3Aaws%3Abedrock%3Aus-east-1%3A1%3Ainference-profile%2Fx/converse',
    );
    assert.deepEqual(JSON.parse(enc.body), {
      messages: [
        { role: 'user', content: [{ text: 'hi' }, { image: { format: 'jpeg', source: { bytes: '/9j/' } } }] },
        { role: 'assistant', content: [{ toolUse: { toolUseId: 'call_1', name: 'f', input: { a: [1] } } }] },
        { role: 'user', content: [{ toolResult: { toolUseId: 'call_1', content: [{ text: 'bad' }], status: 'error' } }, { text: 'again' }] },
      ],
      system: [{ text: 'Be brief.' }],
      inferenceConfig: { maxTokens: 100, temperature: 0, stopSequences: ['S'] },
      toolConfig: { tools: [{ toolSpec: { name: 'f', description: 'F', inputSchema: { json: { type: 'object' } } } }], toolChoice: { tool: { name: 'f' } } },
    });
  });

  it('has no "none" tool choice: tools are left out unless the history holds tool blocks', () => {
    const plain: ModelRequest = {
      model: 'p',
      stream: false,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }],
      tools: model.tools,
      toolChoice: { type: 'none' },
    };
    assert.equal(JSON.parse(bedrockCodec.encodeRequest(plain, 'm').body).toolConfig, undefined);
    const withHistory = JSON.parse(bedrockCodec.encodeRequest({ ...model, toolChoice: { type: 'none' } }, 'm').body);
    assert.deepEqual(withHistory.toolConfig, { tools: [{ toolSpec: { name: 'f', description: 'F', inputSchema: { json: { type: 'object' } } } }] });
  });

  it('refuses a temperature Converse cannot take instead of clamping it', () => {
    assert.throws(
      () => bedrockCodec.encodeRequest({ ...model, temperature: 1.5 }, 'm'),
      (e: unknown) => e instanceof GatewayError && e.kind === 'invalid_request' && /temperature/.test(e.message),
    );
  });

  it('refuses images it cannot carry (an http(s) URL, a format Converse lacks) instead of dropping them', () => {
    for (const image of [
      { type: 'image', url: 'https://x.test/a.png' },
      { type: 'image', data: 'AAAA', mediaType: 'image/tiff' },
    ] as const) {
      const req: ModelRequest = { model: 'p', stream: false, messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }, image] }] };
      assert.throws(
        () => bedrockCodec.encodeRequest(req, 'm'),
        (e: unknown) => e instanceof TranslationRefused && e.reason === 'content_part' && /"image"/.test(e.message) && /bedrock protocol/.test(e.message),
      );
    }
  });

  it('passes the caller body through unchanged: the model is in the path', () => {
    const raw = '{"messages":[{"role":"user","content":[{"text":"hi"}]}],"additionalModelRequestFields":{"k":1}}';
    assert.equal(bedrockCodec.passthroughBody(raw, JSON.parse(raw), 'm', false), raw);
  });
});
