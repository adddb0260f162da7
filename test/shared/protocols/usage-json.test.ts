// The stream encoders' usage templates write JSON.stringify's bytes for the usage objects the
// codecs build, for any counts (integers as the decoders give them, and any double besides).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Usage } from '../../../src/shared/model/types.js';
import { jsonNumber } from '../../../src/shared/protocols/framing/json-field.js';
import { encodeUsage, encodeUsageJson } from '../../../src/shared/protocols/openai/usage.js';
import { usageToAnthropic, usageToAnthropicJson } from '../../../src/shared/protocols/anthropic/usage.js';
import { usageToBedrock, usageToBedrockJson } from '../../../src/shared/protocols/bedrock/usage.js';
import { usageToGemini, usageToGeminiJson } from '../../../src/shared/protocols/gemini/usage.js';
import { encodeUsage as responsesUsage, encodeUsageJson as responsesUsageJson } from '../../../src/shared/protocols/responses/usage.js';

const count = fc.oneof(fc.constant(0), fc.nat(), fc.maxSafeNat(), fc.double());
const usage: fc.Arbitrary<Usage> = fc.record({ input: count, output: count, cacheRead: count, cacheCreation: count });

const TEMPLATES: ReadonlyArray<[string, (u: Usage) => string, (u: Usage) => unknown]> = [
  ['openai', encodeUsageJson, encodeUsage],
  ['anthropic', usageToAnthropicJson, usageToAnthropic],
  ['bedrock', usageToBedrockJson, usageToBedrock],
  ['gemini', usageToGeminiJson, usageToGemini],
  ['responses', responsesUsageJson, responsesUsage],
];

describe('usage templates', () => {
  for (const [name, template, object] of TEMPLATES) {
    it(`${name}: the template is JSON.stringify of the usage object`, () => {
      fc.assert(
        fc.property(usage, (u) => {
          assert.equal(template(u), JSON.stringify(object(u)));
        }),
        { numRuns: 2000 },
      );
      for (const u of [
        { input: 0, output: 0, cacheRead: 0, cacheCreation: 0 },
        { input: 12, output: 50, cacheRead: 3, cacheCreation: 4 },
      ]) {
        assert.equal(template(u), JSON.stringify(object(u)));
      }
    });
  }

  it('jsonNumber spells a number as JSON.stringify does', () => {
    fc.assert(fc.property(fc.double(), (n) => assert.equal(jsonNumber(n), JSON.stringify(n))));
    for (const n of [-0, NaN, Infinity, -Infinity, 1e21, 5e-7]) assert.equal(jsonNumber(n), JSON.stringify(n));
  });
});
