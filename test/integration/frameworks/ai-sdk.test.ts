// AI SDK 7 through the gateway, with each of its providers as the caller and each protocol as
// the lane: `generateObject` (each provider's own structured-output path: response_format,
// text.format, output_config or a forced json tool, responseSchema, outputConfig or a tool,
// format) parses against the zod schema, and `streamText` with a tool runs the tool loop
// (a call, its result, then text).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { generateObject, stepCountIs, streamText, tool, type LanguageModel } from 'ai';
import { createOpenAI } from '@ai-sdk/openai';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createAmazonBedrock } from '@ai-sdk/amazon-bedrock';
import { createOllama } from 'ollama-ai-provider-v2';
import { PROTOCOL_NAMES } from '../../../src/shared/model/types.js';
import { mockText } from '../../../src/mock/content.js';
import { suiteStack } from '../../helpers/clients/stack.js';

const Forecast = z.object({ city: z.string(), days: z.array(z.number().int()) });

/** Each AI SDK provider pointed at the gateway: the caller's protocol. */
const PROVIDERS: ReadonlyArray<[string, (gatewayUrl: string, model: string) => LanguageModel]> = [
  ['openai (chat)', (url, m) => createOpenAI({ baseURL: `${url}/v1`, apiKey: 'sk-test' }).chat(m)],
  ['openai (responses)', (url, m) => createOpenAI({ baseURL: `${url}/v1`, apiKey: 'sk-test' }).responses(m)],
  ['anthropic', (url, m) => createAnthropic({ baseURL: `${url}/v1`, apiKey: 'sk-ant-test' })(m)],
  ['google', (url, m) => createGoogleGenerativeAI({ baseURL: `${url}/v1beta`, apiKey: 'gemini-test-key' })(m)],
  [
    'amazon-bedrock',
    (url, m) => createAmazonBedrock({ baseURL: url, region: 'us-east-1', accessKeyId: 'AKIDGATEWAYTEST', secretAccessKey: 'gateway-test-secret' })(m),
  ],
  ['ollama', (url, m) => createOllama({ baseURL: `${url}/api` })(m)],
];

const stack = suiteStack({ workers: 1 });

for (const [provider, make] of PROVIDERS) {
  describe(`AI SDK ${provider}`, { concurrency: 3 }, () => {
    for (const lane of PROTOCOL_NAMES) {
      it(`generateObject through a ${lane} lane parses against the schema`, async () => {
        const { object } = await generateObject({
          model: make(stack.gateway.url, `pool-${lane}`),
          schema: Forecast,
          prompt: 'Forecast for Paris?',
          maxRetries: 0,
        });
        assert.deepEqual(Forecast.parse(object), object);
      });

      it(`streamText with a tool through a ${lane} lane runs the tool loop`, async () => {
        const calls: unknown[] = [];
        const result = streamText({
          model: make(stack.gateway.url, `pool-${lane}`),
          prompt: 'What is the weather in Paris?',
          tools: {
            get_weather: tool({
              description: 'Current weather for a city',
              inputSchema: z.object({ location: z.string() }),
              execute: async (input) => {
                calls.push(input);
                return { temperature_c: 21 };
              },
            }),
          },
          stopWhen: stepCountIs(3),
          maxRetries: 0,
        });
        const text = await result.text;
        assert.deepEqual(calls, [{ location: 'Paris' }]);
        assert.equal(text, mockText(5));
        assert.equal((await result.steps).length, 2);
      });
    }
  });
}
