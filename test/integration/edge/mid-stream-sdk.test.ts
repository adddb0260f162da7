// A failure after the first byte must raise in the caller's own SDK, stream mode, with the SDK's
// own error type: a partial answer handed back as complete is the failure this test exists for.
// Each of the six SDKs reads a stream that the mock breaks half-way (`fault=reset_during`), on
// a lane of its own protocol (bytes passed through) and on a lane of another (translated).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { ApiError } from '@google/genai';
import { BedrockRuntimeServiceException, ConverseStreamCommand } from '@aws-sdk/client-bedrock-runtime';
import type { ProtocolName } from '../../../src/shared/model/types.js';
import { suiteStack } from '../../helpers/clients/stack.js';
import { openaiSdk } from '../../helpers/clients/openai.js';
import { anthropicSdk } from '../../helpers/clients/anthropic.js';
import { geminiSdk } from '../../helpers/clients/gemini.js';
import { bedrockSdk } from '../../helpers/clients/bedrock.js';
import { ollamaSdk } from '../../helpers/clients/ollama.js';

const PROMPT = 'break it [mock chunks=20 tokens_per_sec=400 fault=reset_during]';

/** What a stream yielded before it raised: the raise is the point, the count shows it was mid-way. */
interface Outcome {
  yielded: number;
  error: unknown;
}

async function drain(iterable: AsyncIterable<unknown>): Promise<Outcome> {
  let yielded = 0;
  try {
    for await (const _ of iterable) yielded++;
  } catch (error) {
    return { yielded, error };
  }
  return { yielded, error: undefined };
}

/** Streams PROMPT through ingress protocol `protocol` to `model` with the vendor's SDK. */
async function streamThrough(protocol: ProtocolName, url: string, model: string): Promise<Outcome> {
  switch (protocol) {
    case 'openai': {
      const stream = await openaiSdk(url).chat.completions.create({ model, stream: true, messages: [{ role: 'user', content: PROMPT }] });
      return drain(stream);
    }
    case 'responses': {
      const stream = await openaiSdk(url).responses.create({ model, stream: true, input: PROMPT });
      return drain(stream);
    }
    case 'anthropic': {
      const stream = await anthropicSdk(url).messages.create({ model, max_tokens: 64, stream: true, messages: [{ role: 'user', content: PROMPT }] });
      return drain(stream);
    }
    case 'gemini': {
      const stream = await geminiSdk(url).models.generateContentStream({ model, contents: [{ role: 'user', parts: [{ text: PROMPT }] }] });
      return drain(stream);
    }
    case 'bedrock': {
      const out = await bedrockSdk(url).send(new ConverseStreamCommand({ modelId: model, messages: [{ role: 'user', content: [{ text: PROMPT }] }] }));
      return drain(out.stream!);
    }
    case 'ollama': {
      const stream = await ollamaSdk(url).chat({ model, stream: true, messages: [{ role: 'user', content: PROMPT }] });
      return drain(stream);
    }
  }
}

/** The SDK's own error for a failed stream, and what tells it from an incidental error. */
function assertSdkError(protocol: ProtocolName, error: unknown): void {
  assert.ok(error instanceof Error, `${protocol}: the stream ended without raising`);
  switch (protocol) {
    case 'openai':
    case 'responses':
      assert.ok(error instanceof OpenAI.APIError, `openai SDK raised ${error.constructor.name}: ${error.message}`);
      return;
    case 'anthropic':
      assert.ok(error instanceof Anthropic.APIError, `anthropic SDK raised ${error.constructor.name}: ${error.message}`);
      return;
    case 'gemini':
      assert.ok(error instanceof ApiError, `@google/genai raised ${error.constructor.name}: ${error.message}`);
      assert.ok(error.status >= 500, `status ${error.status}`);
      return;
    case 'bedrock':
      assert.ok(error instanceof BedrockRuntimeServiceException, `bedrock SDK raised ${error.constructor.name}: ${error.message}`);
      return;
    case 'ollama':
      // The ollama SDK raises a plain Error carrying the stream's {"error":...} line; its own
      // message for a stream cut short without one is "Did not receive done ...".
      assert.doesNotMatch(error.message, /Did not receive done/);
      assert.match(error.message, /upstream/);
      return;
  }
}

const PAIRS: Array<[ProtocolName, ProtocolName]> = [
  ['openai', 'openai'],
  ['openai', 'gemini'],
  ['responses', 'responses'],
  ['responses', 'anthropic'],
  ['anthropic', 'anthropic'],
  ['anthropic', 'ollama'],
  ['gemini', 'gemini'],
  ['gemini', 'openai'],
  ['bedrock', 'bedrock'],
  ['bedrock', 'responses'],
  ['ollama', 'ollama'],
  ['ollama', 'bedrock'],
];

describe('a mid-stream upstream failure raises in every SDK', () => {
  const stack = suiteStack({ workers: 1 });

  for (const [ingress, lane] of PAIRS) {
    it(`${ingress} SDK, ${lane} lane`, async () => {
      const outcome = await streamThrough(ingress, stack.gateway.url, `pool-${lane}`);
      assertSdkError(ingress, outcome.error);
      assert.ok(outcome.yielded > 0, 'the failure came after some of the stream');
    });
  }
});
