// The OpenAI Agents SDK through the gateway: an Agent with a zod `outputType` (the SDK asks
// for a strict json_schema: Responses `text.format`, or Chat `response_format`), run against
// every lane protocol, non-stream and streamed, and its final output checked against the
// schema. Tracing is off (it would export to OpenAI).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { Agent, OpenAIProvider, Runner, setTracingDisabled } from '@openai/agents';
import { PROTOCOL_NAMES } from '../../../src/shared/model/types.js';
import { suiteStack } from '../../helpers/clients/stack.js';

const Forecast = z.object({ city: z.string(), days: z.array(z.number().int()) });

setTracingDisabled(true);
const stack = suiteStack({ workers: 1 });

/** The SDK's own OpenAI client (it bundles its own openai major), pointed at the gateway. */
function runner(useResponses: boolean): Runner {
  return new Runner({ modelProvider: new OpenAIProvider({ baseURL: `${stack.gateway.url}/v1`, apiKey: 'sk-test', useResponses }), tracingDisabled: true });
}

for (const api of ['responses', 'chat_completions'] as const) {
  describe(`Agents SDK outputType over ${api}`, { concurrency: 3 }, () => {
    for (const lane of PROTOCOL_NAMES) {
      for (const stream of [false, true]) {
        it(`through a ${lane} lane${stream ? ', streamed' : ''}`, async () => {
          const agent = new Agent({ name: 'forecaster', instructions: 'Give the forecast.', model: `pool-${lane}`, outputType: Forecast });
          const r = runner(api === 'responses');
          const result = stream ? await r.run(agent, 'Forecast for Paris?', { stream: true }) : await r.run(agent, 'Forecast for Paris?');
          if (stream) await (result as { completed: Promise<void> }).completed;
          const output = result.finalOutput;
          assert.deepEqual(Forecast.parse(output), output);
        });
      }
    }
  });
}
