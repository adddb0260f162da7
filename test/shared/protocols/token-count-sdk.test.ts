// The vendors' SDKs read what the token-count codecs write for a caller, and what each SDK
// sends decodes: the Anthropic SDK's countTokens (0.x and 1.x), @google/genai's countTokens
// (1.x and 2.x), the openai SDK's responses.inputTokens.count, the AWS SDK's CountTokensCommand
// (converse form). Each posts to a local server answering with the route's encoder.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic1 from '@anthropic-ai/sdk';
import Anthropic0 from 'anthropic-v0';
import { GoogleGenAI as GenAi2 } from '@google/genai';
import { GoogleGenAI as GenAi1 } from 'genai-v1';
import OpenAI from 'openai';
import { BedrockRuntimeClient, CountTokensCommand } from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { COUNT_INGRESS, countAnswerHeaders, type CountProtocol } from '../../../src/shared/protocols/token-count.js';
import type { TokenCount } from '../../../src/shared/model/token-count.js';
import { CannedUpstream } from '../../helpers/canned-upstream.js';

let upstream: CannedUpstream;
let url: string;
before(async () => {
  upstream = await CannedUpstream.start(0);
  url = `http://127.0.0.1:${upstream.port}`;
});
after(() => upstream.close());

function answer(caller: CountProtocol, count: TokenCount): void {
  upstream.next = { status: 200, headers: countAnswerHeaders(count), body: COUNT_INGRESS[caller].encodeAnswer(count) };
}

/** What the SDK sent, decoded by the caller route's codec. */
function sent(caller: CountProtocol, pathModel?: string): ReturnType<typeof COUNT_INGRESS.anthropic.decodeRequest> {
  return COUNT_INGRESS[caller].decodeRequest(JSON.parse(upstream.lastRequest!.body), { pathModel });
}

describe('the SDKs read the token-count answers the codecs write', () => {
  for (const [major, Sdk] of [
    ['0.x', Anthropic0],
    ['1.x', Anthropic1],
  ] as const) {
    it(`@anthropic-ai/sdk ${major}: messages.countTokens`, async () => {
      const client = new Sdk({ baseURL: url, apiKey: 'sk-ant-test', maxRetries: 0 });
      answer('anthropic', { inputTokens: 17, estimated: false });
      const out = await client.messages.countTokens({ model: 'pool-x', system: 'S', messages: [{ role: 'user', content: 'hi' }] });
      assert.equal(out.input_tokens, 17);
      assert.match(upstream.lastRequest!.url, /^\/v1\/messages\/count_tokens/);
      assert.equal(sent('anthropic').system, 'S');
    });
  }

  for (const [major, Sdk] of [
    ['1.x', GenAi1],
    ['2.x', GenAi2],
  ] as const) {
    it(`@google/genai ${major}: models.countTokens`, async () => {
      const ai = new Sdk({ apiKey: 'test-key', httpOptions: { baseUrl: url } });
      answer('gemini', { inputTokens: 23, cachedTokens: 5, estimated: false });
      const out = await ai.models.countTokens({ model: 'pool-x', contents: 'hi there' });
      assert.equal(out.totalTokens, 23);
      assert.equal(out.cachedContentTokenCount, 5);
      assert.match(upstream.lastRequest!.url, /\/models\/pool-x:countTokens$/);
      assert.deepEqual(sent('gemini', 'pool-x').messages, [{ role: 'user', content: [{ type: 'text', text: 'hi there' }] }]);
    });
  }

  it('openai: responses.inputTokens.count', async () => {
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
    answer('responses', { inputTokens: 31, estimated: true });
    const out = await client.responses.inputTokens.count({ model: 'pool-x', input: 'hi', instructions: 'S' });
    assert.deepEqual(out, { object: 'response.input_tokens', input_tokens: 31 });
    assert.equal(sent('responses').system, 'S');
  });

  it('AWS SDK: CountTokensCommand with the converse form', async () => {
    const client = new BedrockRuntimeClient({
      endpoint: url,
      region: 'us-east-1',
      maxAttempts: 1,
      credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' },
      requestHandler: new NodeHttpHandler(),
    });
    answer('bedrock', { inputTokens: 41, estimated: false });
    const out = await client.send(
      new CountTokensCommand({
        modelId: 'anthropic.claude-v1:0',
        input: { converse: { messages: [{ role: 'user', content: [{ text: 'hi' }] }], system: [{ text: 'S' }] } },
      }),
    );
    assert.equal(out.inputTokens, 41);
    assert.match(upstream.lastRequest!.url, /^\/model\/anthropic\.claude-v1%3A0\/count-tokens$/);
    assert.equal(sent('bedrock', 'anthropic.claude-v1:0').system, 'S');
  });
});
