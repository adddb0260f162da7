// The token-count kind through the real gateway: the Anthropic SDK's messages.countTokens and
// @google/genai's models.countTokens on three lanes -- Anthropic and Gemini (each lane's own
// counting endpoint, translated both ways) and Ollama (no counting endpoint: the gateway's
// documented estimate, marked by the x-gateway-token-count header) -- plus the Responses
// input_tokens route; and a count governed as a request (the requests limit refuses it).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { ESTIMATE_BYTES_PER_TOKEN, ESTIMATE_TOKENS_PER_FILE, ESTIMATE_TOKENS_PER_MESSAGE } from '../../../src/shared/model/token-count.js';
import { bedrockCountPath } from '../../../src/shared/protocols/bedrock/token-count.js';
import { geminiCountPath } from '../../../src/shared/protocols/gemini/token-count.js';
import { type Stack, suiteStack } from '../../helpers/clients/stack.js';

const TEXT = 'one two three four five';
/** The mock counts whitespace-separated words (src/mock/kinds/answers.ts). */
const WORDS = 5;
/** The gateway's estimate for one user message holding TEXT (model/token-count.ts: bytes / 4, plus 4 per message). */
const ESTIMATE = Math.ceil(Buffer.byteLength(TEXT) / ESTIMATE_BYTES_PER_TOKEN) + ESTIMATE_TOKENS_PER_MESSAGE;

/** What the mock received last (its /mock/last-request control route); null when nothing since the last reset. */
async function lastUpstream(stack: Stack): Promise<{ path: string; body: string } | null> {
  const res = await fetch(`${stack.mock.url}/mock/last-request`);
  return res.status === 404 ? null : ((await res.json()) as { path: string; body: string });
}

describe('token counting through the gateway', () => {
  const stack = suiteStack();

  const anthropic = (): Anthropic => new Anthropic({ baseURL: stack.gateway.url, apiKey: 'sk-ant-test', maxRetries: 0 });
  const genai = (): GoogleGenAI => new GoogleGenAI({ apiKey: 'gemini-test-key', httpOptions: { baseUrl: stack.gateway.url } });

  for (const [pool, path] of [
    ['pool-anthropic', /^\/v1\/messages\/count_tokens$/],
    ['pool-gemini', new RegExp(`^/v1beta${geminiCountPath('up-gemini')}$`)],
  ] as const) {
    it(`Anthropic SDK countTokens on ${pool}: the lane's own count`, async () => {
      const { data, response } = await anthropic()
        .messages.countTokens({ model: pool, messages: [{ role: 'user', content: TEXT }] })
        .withResponse();
      assert.equal(data.input_tokens, WORDS);
      assert.equal(response.headers.get('x-gateway-token-count'), null);
      assert.match((await lastUpstream(stack))!.path, path);
    });

    it(`genai countTokens on ${pool}: the lane's own count`, async () => {
      const out = await genai().models.countTokens({ model: pool, contents: TEXT });
      assert.equal(out.totalTokens, WORDS);
      assert.match((await lastUpstream(stack))!.path, path);
    });
  }

  it('Anthropic SDK countTokens on a Bedrock lane: its CountTokens, in the converse form', async () => {
    const out = await anthropic().messages.countTokens({ model: 'pool-bedrock', system: 'Be brief.', messages: [{ role: 'user', content: TEXT }] });
    // The system prompt is counted too (two more words).
    assert.equal(out.input_tokens, WORDS + 2);
    const sent = (await lastUpstream(stack))!;
    assert.equal(sent.path, bedrockCountPath('up-bedrock'));
    assert.ok(JSON.parse(sent.body).input.converse.messages.length === 1);
  });

  it('Anthropic SDK countTokens on an Ollama lane: the estimate, marked', async () => {
    stack.mock.reset();
    const { data, response } = await anthropic()
      .messages.countTokens({ model: 'pool-ollama', messages: [{ role: 'user', content: TEXT }] })
      .withResponse();
    assert.equal(data.input_tokens, ESTIMATE);
    assert.equal(response.headers.get('x-gateway-token-count'), 'estimate');
    assert.equal(await lastUpstream(stack), null, 'no upstream call for an estimate');
  });

  it('a document in the estimate is a fixed charge', async () => {
    const pdf = Buffer.from('%PDF-1.4 not really').toString('base64');
    const out = await anthropic().messages.countTokens({
      model: 'pool-ollama',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdf } },
            { type: 'text', text: TEXT },
          ],
        },
      ],
    });
    assert.equal(out.input_tokens, ESTIMATE + ESTIMATE_TOKENS_PER_FILE);
  });

  for (const [pool, path] of [
    ['pool-bedrock', bedrockCountPath('up-bedrock')],
    ['pool-gemini', `/v1beta${geminiCountPath('up-gemini')}`],
  ] as const) {
    it(`Bedrock CountTokens (converse form) on ${pool}`, async () => {
      const res = await fetch(`${stack.gateway.url}/model/${pool}/count-tokens`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ input: { converse: { messages: [{ role: 'user', content: [{ text: TEXT }] }] } } }),
      });
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), { inputTokens: WORDS });
      assert.equal((await lastUpstream(stack))!.path, path);
    });
  }

  it('genai countTokens on an Ollama lane: the estimate', async () => {
    const out = await genai().models.countTokens({ model: 'pool-ollama', contents: TEXT });
    assert.equal(out.totalTokens, ESTIMATE);
  });

  it('Responses input_tokens on an Anthropic lane', async () => {
    const client = new OpenAI({ baseURL: `${stack.gateway.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
    const out = await client.responses.inputTokens.count({ model: 'pool-anthropic', input: TEXT });
    assert.equal(out.input_tokens, WORDS);
    assert.match((await lastUpstream(stack))!.path, /^\/v1\/messages\/count_tokens$/);
  });

  it("an unknown model is refused in the caller's shape", async () => {
    const res = await fetch(`${stack.gateway.url}/v1/messages/count_tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'no-such-model', messages: [{ role: 'user', content: TEXT }] }),
    });
    assert.equal(res.status, 404);
    const body = (await res.json()) as { type: string };
    assert.equal(body.type, 'error');
  });
});
