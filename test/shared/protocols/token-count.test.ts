// The token-count codecs: each caller route decoded into the ModelRequest its chat request would
// be, each lane's counting request written without generation fields, the plan for every
// (caller, lane) pair (passthrough, translated, or the estimate for lanes with no endpoint),
// the answers both ways, and the estimate's table.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { COUNT_INGRESS, COUNT_UPSTREAM, countAnswerHeaders, planCount, type CountProtocol } from '../../../src/shared/protocols/token-count.js';
import { estimateInputTokens, ESTIMATE_TOKENS_PER_IMAGE, ESTIMATE_TOKENS_PER_MESSAGE, TOKEN_COUNT_HEADER } from '../../../src/shared/model/token-count.js';
import type { ModelRequest, ProtocolName } from '../../../src/shared/model/types.js';
import { GatewayError } from '../../../src/shared/errors.js';
import { assistant, image, text, toolCall, user } from '../../helpers/model-turns.js';

const TOOL = { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } };

/** "Be brief." as the system prompt, one user turn "count me", one tool: as each caller writes it. */
const CALLER: Record<CountProtocol, { body: Record<string, unknown>; route: { pathModel?: string } }> = {
  anthropic: {
    body: {
      model: 'pool-x',
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'count me' }],
      tools: [{ name: TOOL.name, description: TOOL.description, input_schema: TOOL.parameters }],
    },
    route: {},
  },
  gemini: {
    body: {
      generateContentRequest: {
        model: 'models/pool-x',
        systemInstruction: { parts: [{ text: 'Be brief.' }] },
        contents: [{ role: 'user', parts: [{ text: 'count me' }] }],
        tools: [{ functionDeclarations: [TOOL] }],
      },
    },
    route: { pathModel: 'pool-x' },
  },
  responses: {
    body: {
      model: 'pool-x',
      instructions: 'Be brief.',
      input: 'count me',
      tools: [{ type: 'function', name: TOOL.name, description: TOOL.description, parameters: TOOL.parameters }],
    },
    route: {},
  },
  bedrock: {
    body: {
      input: {
        converse: {
          system: [{ text: 'Be brief.' }],
          messages: [{ role: 'user', content: [{ text: 'count me' }] }],
          toolConfig: { tools: [{ toolSpec: { name: TOOL.name, description: TOOL.description, inputSchema: { json: TOOL.parameters } } }] },
        },
      },
    },
    route: { pathModel: 'pool-x' },
  },
};

function decode(caller: CountProtocol): ModelRequest {
  const { body, route } = CALLER[caller];
  return COUNT_INGRESS[caller].decodeRequest(body, route);
}

describe('token count: callers decode to the chat request they would be', () => {
  for (const caller of Object.keys(CALLER) as CountProtocol[]) {
    it(caller, () => {
      const req = decode(caller);
      assert.equal(COUNT_INGRESS[caller].requestedModel(CALLER[caller].body, CALLER[caller].route), 'pool-x');
      assert.equal(req.model, 'pool-x');
      assert.equal(req.system, 'Be brief.');
      assert.deepEqual(req.messages, [{ role: 'user', content: [{ type: 'text', text: 'count me' }] }]);
      assert.equal(req.tools?.[0]?.name, 'get_weather');
      assert.equal(req.stream, false);
      assert.equal(req.maxTokens, undefined);
    });
  }

  it('generation settings are cleared: they change no count (and the counting endpoints refuse them)', () => {
    const req = COUNT_INGRESS.anthropic.decodeRequest(
      { model: 'm', max_tokens: 100, temperature: 0.5, stop_sequences: ['x'], messages: [{ role: 'user', content: 'hi' }] },
      {},
    );
    assert.deepEqual(Object.keys(req).sort(), ['messages', 'model', 'stream']);
    const structured = COUNT_INGRESS.responses.decodeRequest({ model: 'm', input: 'hi', text: { format: { type: 'json_schema', name: 's', schema: {} } } }, {});
    assert.equal(structured.untranslatable, undefined, 'a structured-output format changes an answer, not a count');
  });

  it('Gemini: contents alone (what @google/genai sends) or the whole request; not both', () => {
    const req = COUNT_INGRESS.gemini.decodeRequest({ contents: [{ role: 'user', parts: [{ text: 'a' }] }] }, { pathModel: 'm' });
    assert.deepEqual(req.messages, [{ role: 'user', content: [{ type: 'text', text: 'a' }] }]);
    assert.throws(() => COUNT_INGRESS.gemini.decodeRequest({ contents: [], generateContentRequest: { contents: [] } }, { pathModel: 'm' }), /not both/);
    assert.throws(() => COUNT_INGRESS.gemini.decodeRequest({ contents: [] }, {}), /model is named in the path/);
  });

  it("Bedrock: input.invokeModel with Anthropic's native body is read; any other native body is refused", () => {
    const native = { anthropic_version: 'bedrock-2023-05-31', max_tokens: 10, system: 'S', messages: [{ role: 'user', content: 'hi there' }] };
    const body = { input: { invokeModel: { body: Buffer.from(JSON.stringify(native)).toString('base64') } } };
    const req = COUNT_INGRESS.bedrock.decodeRequest(body, { pathModel: 'anthropic.claude' });
    assert.deepEqual([req.model, req.system, req.messages[0]!.content], ['anthropic.claude', 'S', [{ type: 'text', text: 'hi there' }]]);
    const titan = { input: { invokeModel: { body: Buffer.from(JSON.stringify({ inputText: 'hi' })).toString('base64') } } };
    assert.throws(
      () => COUNT_INGRESS.bedrock.decodeRequest(titan, { pathModel: 'amazon.titan' }),
      (e: unknown) => e instanceof GatewayError && e.kind === 'untranslatable',
    );
    assert.throws(() => COUNT_INGRESS.bedrock.decodeRequest({ input: {} }, { pathModel: 'm' }), /converse or invokeModel/);
    // A same-protocol lane takes any native body unchanged.
    assert.deepEqual(COUNT_INGRESS.bedrock.passthrough(JSON.stringify(titan), titan, 'amazon.titan-v2:0'), {
      path: '/model/amazon.titan-v2%3A0/count-tokens',
      body: JSON.stringify(titan),
    });
  });
});

describe("token count: each lane's counting request", () => {
  const req = decode('anthropic');
  it('anthropic: count_tokens, the Messages body without max_tokens', () => {
    const out = COUNT_UPSTREAM.anthropic!.encodeRequest({ ...req, maxTokens: 5 }, 'claude-up');
    assert.equal(out.path, '/v1/messages/count_tokens');
    const body = JSON.parse(out.body);
    assert.deepEqual(Object.keys(body).sort(), ['messages', 'model', 'system', 'tools']);
    assert.equal(body.model, 'claude-up');
    assert.equal(out.headers?.['anthropic-version'], '2023-06-01');
  });
  it('gemini: countTokens with the whole request, which names the model', () => {
    const out = COUNT_UPSTREAM.gemini!.encodeRequest(req, 'gemini-up');
    assert.equal(out.path, '/models/gemini-up:countTokens');
    const body = JSON.parse(out.body);
    assert.deepEqual(Object.keys(body), ['generateContentRequest']);
    assert.equal(body.generateContentRequest.model, 'models/gemini-up');
    assert.deepEqual(body.generateContentRequest.contents, [{ role: 'user', parts: [{ text: 'count me' }] }]);
    assert.ok(body.generateContentRequest.systemInstruction !== undefined && body.generateContentRequest.tools !== undefined);
  });
  it('responses: input_tokens, without stream or max_output_tokens', () => {
    const out = COUNT_UPSTREAM.responses!.encodeRequest({ ...req, maxTokens: 5 }, 'gpt-up');
    assert.equal(out.path, '/responses/input_tokens');
    assert.deepEqual(Object.keys(JSON.parse(out.body)).sort(), ['input', 'instructions', 'model', 'tools']);
  });
  it('bedrock: CountTokens with input.converse, no inferenceConfig', () => {
    const out = COUNT_UPSTREAM.bedrock!.encodeRequest({ ...req, maxTokens: 5 }, 'anthropic.claude-v1:0');
    assert.equal(out.path, '/model/anthropic.claude-v1%3A0/count-tokens');
    assert.deepEqual(Object.keys(JSON.parse(out.body).input.converse).sort(), ['messages', 'system', 'toolConfig']);
  });
});

describe('token count: the plan for every caller on every lane', () => {
  const lanes: ProtocolName[] = ['openai', 'responses', 'anthropic', 'gemini', 'bedrock', 'ollama'];
  for (const caller of Object.keys(CALLER) as CountProtocol[]) {
    for (const lane of lanes) {
      it(`${caller} caller, ${lane} lane`, () => {
        const { body } = CALLER[caller];
        const plan = planCount(COUNT_INGRESS[caller], decode(caller), JSON.stringify(body), body, lane, 'up');
        if (lane === 'openai' || lane === 'ollama') {
          assert.equal(plan.kind, 'estimate');
          if (plan.kind !== 'estimate') return;
          assert.equal(plan.count.estimated, true);
          assert.equal(plan.count.inputTokens, estimateInputTokens(decode(caller)));
          assert.equal(countAnswerHeaders(plan.count)[TOKEN_COUNT_HEADER], 'estimate');
          return;
        }
        assert.equal(plan.kind, 'upstream');
        if (plan.kind !== 'upstream') return;
        if (lane === caller) {
          // The caller's own bytes, only the model changed (in the path for Gemini and Bedrock).
          const sent = JSON.parse(plan.request.body);
          if (caller === 'gemini') assert.equal(sent.generateContentRequest.model, 'models/up');
          else if (caller === 'bedrock') assert.deepEqual(sent, body);
          else assert.deepEqual(sent, { ...body, model: 'up' });
        }
        const answers: Record<string, unknown> = {
          anthropic: { input_tokens: 42 },
          gemini: { totalTokens: 42 },
          responses: { object: 'response.input_tokens', input_tokens: 42 },
          bedrock: { inputTokens: 42 },
        };
        const count = plan.decodeAnswer(answers[lane]);
        assert.deepEqual(count, { inputTokens: 42, estimated: false });
        assert.equal(countAnswerHeaders(count)[TOKEN_COUNT_HEADER], undefined);
      });
    }
  }
});

describe('token count: answers', () => {
  const count = { inputTokens: 42, cachedTokens: 7, estimated: false };
  it("each caller's shape", () => {
    assert.equal(COUNT_INGRESS.anthropic.encodeAnswer(count), '{"input_tokens":42}');
    assert.equal(COUNT_INGRESS.gemini.encodeAnswer(count), '{"totalTokens":42,"cachedContentTokenCount":7}');
    assert.equal(COUNT_INGRESS.gemini.encodeAnswer({ inputTokens: 3, estimated: true }), '{"totalTokens":3}');
    assert.equal(COUNT_INGRESS.responses.encodeAnswer(count), '{"object":"response.input_tokens","input_tokens":42}');
    assert.equal(COUNT_INGRESS.bedrock.encodeAnswer(count), '{"inputTokens":42}');
  });
  it("each lane's answer read; a malformed one is the upstream's fault; Gemini's {} is zero", () => {
    assert.deepEqual(
      COUNT_UPSTREAM.gemini!.decodeAnswer({ totalTokens: 9, cachedContentTokenCount: 4, promptTokensDetails: [{ modality: 'TEXT', tokenCount: 9 }] }),
      { inputTokens: 9, cachedTokens: 4, estimated: false },
    );
    assert.deepEqual(COUNT_UPSTREAM.gemini!.decodeAnswer({}), { inputTokens: 0, estimated: false });
    for (const lane of ['anthropic', 'responses', 'bedrock'] as const) {
      assert.throws(
        () => COUNT_UPSTREAM[lane]!.decodeAnswer({ tokens: 1 }),
        (e: unknown) => e instanceof GatewayError && e.kind === 'upstream_error',
      );
    }
  });
});

describe('token count: the estimate', () => {
  it('text bytes / 4 rounded up, plus a fixed charge per message and per image', () => {
    const req: ModelRequest = {
      model: 'm',
      stream: false,
      system: 'abcd',
      messages: [user(text('abcdefgh'), image({ url: 'https://example.com/a.png' })), assistant(toolCall('c', 'ab', '{}'))],
    };
    // 4 + 8 + 2 + 2 = 16 bytes: 4 tokens; two messages; one image.
    assert.equal(estimateInputTokens(req), 4 + 2 * ESTIMATE_TOKENS_PER_MESSAGE + ESTIMATE_TOKENS_PER_IMAGE);
    assert.equal(estimateInputTokens({ model: 'm', stream: false, messages: [user(text('é'))] }), 1 + ESTIMATE_TOKENS_PER_MESSAGE, 'bytes, not characters');
  });
});
