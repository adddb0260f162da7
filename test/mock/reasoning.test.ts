// The mock's reasoning answers, through each vendor's own SDK: the reasoning in the protocol's
// own field, its reasoning and cache-write counts in its usage, and the state it signed checked
// on the next turn (the tool loop goes through when the turn comes back as the SDK gave it, and
// is refused with the vendor's 400 when the state was changed or left out).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mockText } from '../../src/mock/content.js';
import { geminiSubject, MOCK_REASONING_ITEM_ID, MOCK_REASONING_TEXT, mockSignature } from '../../src/mock/reasoning/content.js';
import { PROTOCOL_NAMES, type ProtocolName } from '../../src/shared/model/types.js';
import { reasoningClientFor } from '../helpers/clients/reasoning-turns.js';
import { suiteMock } from '../helpers/clients/stack.js';

/** What the mock signs its state with, per protocol, and so what a test may change to break it. */
const STATE: Record<ProtocolName, string | null> = {
  anthropic: mockSignature('anthropic', MOCK_REASONING_TEXT),
  bedrock: mockSignature('bedrock', MOCK_REASONING_TEXT),
  gemini: mockSignature('gemini', geminiSubject('get_weather')),
  responses: mockSignature('responses', MOCK_REASONING_ITEM_ID),
  openai: MOCK_REASONING_TEXT, // reasoning_content is DeepSeek's state
  ollama: null, // Ollama checks nothing
};
/** Protocols whose usage has a reasoning count of its own, and a cache-write count of its own. */
const REASONING_FIELD = new Set<ProtocolName>(['openai', 'responses', 'gemini']);
const CACHE_WRITE_FIELD = new Set<ProtocolName>(['anthropic', 'bedrock']);

function model(protocol: ProtocolName): string {
  return protocol === 'bedrock' ? 'anthropic.claude-m-v1:0' : `${protocol}-m`;
}

const mock = suiteMock({ reasoning: 'on', reasoning_tokens: 3, cache_creation_tokens: 4 });

for (const protocol of PROTOCOL_NAMES) {
  describe(`mock reasoning: ${protocol}`, () => {
    for (const stream of [false, true]) {
      const mode = stream ? 'stream' : 'non-stream';
      it(`${mode}: reasoning in its own field, reasoning and cache-write counts in its usage`, async () => {
        const turn = await reasoningClientFor(protocol, mock.url)({ model: model(protocol), stream, prompt: 'Think first.', tools: false });
        assert.equal(turn.reasoning, MOCK_REASONING_TEXT);
        assert.equal(turn.text, mockText(5));
        assert.equal(turn.usage.output, 5 + 3, 'reasoning tokens count as output');
        assert.equal(turn.usage.reasoning, REASONING_FIELD.has(protocol) ? 3 : 0);
        assert.equal(turn.usage.cacheCreation, CACHE_WRITE_FIELD.has(protocol) ? 4 : 0);
        // Where there is no cache-write field, cache writes are prompt input (Ollama's evaluated prompt too).
        assert.equal(turn.usage.input, CACHE_WRITE_FIELD.has(protocol) ? 12 : 12 + 4);
      });

      it(`${mode}: a tool loop goes through with the turn echoed as the SDK gave it`, async () => {
        const ask = reasoningClientFor(protocol, mock.url);
        const first = await ask({ model: model(protocol), stream, prompt: 'What is the weather in Paris?', tools: true });
        assert.equal(first.toolCalls[0]?.name, 'get_weather');
        assert.equal(first.reasoning, MOCK_REASONING_TEXT);
        const second = await ask({ model: model(protocol), stream, prompt: '', tools: true, history: first.echo });
        assert.equal(second.text, mockText(5));
      });

      const state = STATE[protocol];
      if (state !== null) {
        it(`${mode}: refuses the loop's next turn when the state came back changed, or not at all`, async () => {
          const ask = reasoningClientFor(protocol, mock.url);
          const first = await ask({ model: model(protocol), stream, prompt: 'What is the weather in Paris?', tools: true });
          const text = JSON.stringify(first.echo);
          assert.ok(text.includes(JSON.stringify(state).slice(1, -1)), 'the echo holds the state');
          const changed = JSON.parse(text.split(JSON.stringify(state).slice(1, -1)).join('QUFBQQ==')) as unknown[];
          await assert.rejects(
            ask({ model: model(protocol), stream, prompt: '', tools: true, history: changed }),
            (e: unknown) =>
              (e as { status?: number; $metadata?: { httpStatusCode?: number } }).status === 400 ||
              (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 400,
          );
        });
      }
    }
  });
}
