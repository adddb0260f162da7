// LangChain's chat models through the gateway: `withStructuredOutput` with its default method
// (ChatOpenAI: response_format json_schema; ChatAnthropic: a forced `extract` tool;
// ChatGoogleGenerativeAI: responseSchema), each against every lane protocol, and the parsed
// object checked against the zod schema.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { ChatOpenAI } from '@langchain/openai';
import { ChatAnthropic } from '@langchain/anthropic';
import { ChatGoogleGenerativeAI } from '@langchain/google-genai';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { PROTOCOL_NAMES } from '../../../src/shared/model/types.js';
import { suiteStack } from '../../helpers/clients/stack.js';

const Forecast = z.object({ city: z.string().describe('The city'), days: z.array(z.number().int()) });

const MODELS: ReadonlyArray<[string, (gatewayUrl: string, model: string) => BaseChatModel]> = [
  ['ChatOpenAI', (url, model) => new ChatOpenAI({ model, apiKey: 'sk-test', maxRetries: 0, configuration: { baseURL: `${url}/v1` } })],
  ['ChatAnthropic', (url, model) => new ChatAnthropic({ model, apiKey: 'sk-ant-test', maxRetries: 0, anthropicApiUrl: url })],
  ['ChatGoogleGenerativeAI', (url, model) => new ChatGoogleGenerativeAI({ model, apiKey: 'gemini-test-key', maxRetries: 0, baseUrl: url })],
];

const stack = suiteStack({ workers: 1 });

for (const [name, make] of MODELS) {
  describe(`LangChain ${name}.withStructuredOutput (default method)`, { concurrency: 3 }, () => {
    for (const lane of PROTOCOL_NAMES) {
      it(`through a ${lane} lane`, async () => {
        const structured = make(stack.gateway.url, `pool-${lane}`).withStructuredOutput(Forecast);
        const out = await structured.invoke('Forecast for Paris?');
        assert.deepEqual(Forecast.parse(out), out);
      });
    }
  });
}
