// A failure after the first byte raises in every SDK major callers use: @google/genai 1.x and
// 2.x, openai 4, 5 and 6 (Chat Completions and Responses), @anthropic-ai/sdk 0.x and 1.x
// (mid-stream-sdk.test.ts covers each protocol's current SDK). Each is driven against an
// upstream that breaks its stream half way (the mock's reset_during), on a lane of the
// caller's own protocol and on one of another: the SDK's iteration must throw its own error
// after some text came, never end as if the answer were complete.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError as ApiError2, GoogleGenAI as GenAi2 } from '@google/genai';
import { ApiError as ApiError1, GoogleGenAI as GenAi1 } from 'genai-v1';
import OpenAI6 from 'openai';
import OpenAI5 from 'openai-v5';
import OpenAI4 from 'openai-v4';
import Anthropic1 from '@anthropic-ai/sdk';
import Anthropic0 from 'anthropic-v0';
import { poolPerProtocol, suiteStack } from '../../helpers/clients/stack.js';

const PROMPT = 'break it [mock chunks=20 tokens_per_sec=400 fault=reset_during]';
const TIMEOUT_MS = 20_000;

/** Runs a streamed call, collecting its text; answers the text and what it threw (null: ended cleanly). */
type StreamedCall = (url: string, pool: string) => Promise<{ text: string; thrown: unknown }>;

async function collect(pieces: AsyncIterable<string>): Promise<{ text: string; thrown: unknown }> {
  let text = '';
  try {
    for await (const piece of pieces) text += piece;
  } catch (err) {
    return { text, thrown: err };
  }
  return { text, thrown: null };
}

function genai(Sdk: typeof GenAi1 | typeof GenAi2): StreamedCall {
  return (url, pool) =>
    collect(
      (async function* () {
        const ai = new Sdk({ apiKey: 'gemini-test-key', httpOptions: { baseUrl: url, timeout: TIMEOUT_MS } });
        for await (const chunk of await ai.models.generateContentStream({ model: pool, contents: PROMPT })) yield chunk.text ?? '';
      })(),
    );
}

type OpenAiSdk = typeof OpenAI4 | typeof OpenAI5 | typeof OpenAI6;

function openaiChat(Sdk: OpenAiSdk): StreamedCall {
  return (url, pool) =>
    collect(
      (async function* () {
        // The three majors' call signatures do not unify; the calls below are the same in each.
        const client = new Sdk({ baseURL: `${url}/v1`, apiKey: 'sk-test', maxRetries: 0, timeout: TIMEOUT_MS }) as unknown as OpenAI6;
        const stream = await client.chat.completions.create({ model: pool, stream: true, messages: [{ role: 'user', content: PROMPT }] });
        for await (const chunk of stream) yield chunk.choices[0]?.delta?.content ?? '';
      })(),
    );
}

function openaiResponses(Sdk: OpenAiSdk): StreamedCall {
  return (url, pool) =>
    collect(
      (async function* () {
        // The three majors' call signatures do not unify; the calls below are the same in each.
        const client = new Sdk({ baseURL: `${url}/v1`, apiKey: 'sk-test', maxRetries: 0, timeout: TIMEOUT_MS }) as unknown as OpenAI6;
        const stream = await client.responses.create({ model: pool, stream: true, input: PROMPT });
        for await (const event of stream) if (event.type === 'response.output_text.delta') yield event.delta;
      })(),
    );
}

function anthropic(Sdk: typeof Anthropic0 | typeof Anthropic1): StreamedCall {
  return (url, pool) =>
    collect(
      (async function* () {
        const client = new Sdk({ baseURL: url, apiKey: 'sk-ant-test', maxRetries: 0, timeout: TIMEOUT_MS }) as unknown as Anthropic1;
        const stream = await client.messages.create({ model: pool, max_tokens: 64, stream: true, messages: [{ role: 'user', content: PROMPT }] });
        for await (const event of stream) if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') yield event.delta.text;
      })(),
    );
}

/**
 * genai 1.x raises ApiError on a read that is the bare error object alone; when it came in one
 * read with the text before it, the SDK's own "Incomplete JSON segment" at the end of the stream.
 */
function isGenAi1Failure(err: unknown): boolean {
  return (err instanceof ApiError1 && err.status >= 500) || (err instanceof Error && /Incomplete JSON segment/.test(err.message));
}

const isGenAi2Failure = (err: unknown): boolean => err instanceof ApiError2 && err.status >= 500;

/** [SDK major, its call, what its own failure is, the lane of its own protocol, a lane of another]. */
const CALLERS: Array<[string, StreamedCall, (err: unknown) => boolean, string, string]> = [
  ['@google/genai 1.x', genai(GenAi1), isGenAi1Failure, 'pool-gemini', 'pool-openai'],
  ['@google/genai 2.x', genai(GenAi2), isGenAi2Failure, 'pool-gemini', 'pool-anthropic'],
  ['openai 4 chat', openaiChat(OpenAI4), (e) => e instanceof OpenAI4.APIError, 'pool-openai', 'pool-gemini'],
  ['openai 5 chat', openaiChat(OpenAI5), (e) => e instanceof OpenAI5.APIError, 'pool-openai', 'pool-anthropic'],
  ['openai 6 chat', openaiChat(OpenAI6), (e) => e instanceof OpenAI6.APIError, 'pool-openai', 'pool-bedrock'],
  ['openai 4 responses', openaiResponses(OpenAI4), (e) => e instanceof OpenAI4.APIError, 'pool-responses', 'pool-anthropic'],
  ['openai 5 responses', openaiResponses(OpenAI5), (e) => e instanceof OpenAI5.APIError, 'pool-responses', 'pool-gemini'],
  ['openai 6 responses', openaiResponses(OpenAI6), (e) => e instanceof OpenAI6.APIError, 'pool-responses', 'pool-ollama'],
  ['@anthropic-ai/sdk 0.x', anthropic(Anthropic0), (e) => e instanceof Anthropic0.APIError, 'pool-anthropic', 'pool-openai'],
  ['@anthropic-ai/sdk 1.x', anthropic(Anthropic1), (e) => e instanceof Anthropic1.APIError, 'pool-anthropic', 'pool-gemini'],
];

describe('a mid-stream failure raises in every SDK major', () => {
  // Every case breaks a stream on purpose, several on one lane: a breaker that trips only
  // after many failures keeps the cases independent.
  const stack = suiteStack({ workers: 1, over: { pools: poolPerProtocol({ breaker: { consecutive_n: 1000 } }) } });

  for (const [sdk, call, isOwnFailure, ownPool, otherPool] of CALLERS) {
    for (const pool of [ownPool, otherPool]) {
      it(`${sdk}, ${pool}`, async () => {
        const { text, thrown } = await call(stack.gateway.url, pool);
        assert.ok(thrown !== null, `the stream ended cleanly after ${JSON.stringify(text)}`);
        assert.ok(isOwnFailure(thrown), `not the SDK's own failure: ${String(thrown)}`);
        assert.ok(text.startsWith('The quick'), `some text came first (got ${JSON.stringify(text)}, threw ${String(thrown)})`);
      });
    }
  }
});
