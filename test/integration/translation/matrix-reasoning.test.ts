// Reasoning output, its signed state and the cache and reasoning counts on all 36 ordered
// (ingress, lane) pairs, through the real gateway, each ingress spoken by its vendor's SDK
// (test/helpers/clients/reasoning-turns.ts), stream and not. The mock (`reasoning=on`) answers
// with its reasoning signed in its protocol's own way and checks on the next turn that the state
// came back byte for byte (src/mock/reasoning/verify.ts: a changed or missing signature is the
// vendor's 400), so a tool loop that ends in the mock's text proves the round trip.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PROTOCOL_NAMES, type ProtocolName } from '../../../src/shared/model/types.js';
import { mockText } from '../../../src/mock/content.js';
import { geminiSubject, MOCK_REASONING_TEXT, mockSignature } from '../../../src/mock/reasoning/content.js';
import { suiteStack } from '../../helpers/clients/stack.js';
import { reasoningClientFor, type ReasoningClient } from '../../helpers/clients/reasoning-turns.js';

const MODES = [false, true] as const;
const CONCURRENCY = 6;
/** Protocols whose usage reports reasoning tokens apart (the others count them in the output only). */
const REASONING_FIELD: ReadonlySet<ProtocolName> = new Set(['openai', 'responses', 'gemini']);
/** Protocols whose usage has a cache-write count (the others count cache writes as input). */
const CACHE_WRITE_FIELD: ReadonlySet<ProtocolName> = new Set(['anthropic', 'bedrock']);
/** Chat Completions and Ollama callers may keep only content and tool calls (LangChain's ChatOpenAI does). */
const BARE_ECHO: ReadonlySet<ProtocolName> = new Set(['openai', 'ollama']);

const clients = new Map<ProtocolName, ReasoningClient>();
const stack = suiteStack({ workers: 2 }, (started) => {
  for (const p of PROTOCOL_NAMES) clients.set(p, reasoningClientFor(p, started.gateway.url));
});

for (const ingress of PROTOCOL_NAMES) {
  describe(`reasoning, ingress ${ingress}`, { concurrency: CONCURRENCY }, () => {
    for (const lane of PROTOCOL_NAMES) {
      for (const stream of MODES) {
        const label = `${ingress} -> ${lane} ${stream ? 'stream' : 'non-stream'}`;
        const model = `pool-${lane}`;

        it(`${label}: reasoning in the caller's own field, reasoning and cache-write counts in its usage`, async () => {
          const turn = await clients.get(ingress)!({ model, stream, prompt: '[mock reasoning=on cache_creation_tokens=4] Think first.', tools: false });
          assert.equal(turn.reasoning, MOCK_REASONING_TEXT);
          assert.equal(turn.text, mockText(5));
          assert.equal(turn.usage.output, 5 + 3, 'reasoning tokens are output');
          const both = (fields: ReadonlySet<ProtocolName>): boolean => fields.has(ingress) && fields.has(lane);
          assert.equal(turn.usage.reasoning, both(REASONING_FIELD) ? 3 : 0, 'reasoning tokens apart');
          assert.equal(turn.usage.cacheCreation, both(CACHE_WRITE_FIELD) ? 4 : 0, 'cache writes apart');
          assert.equal(turn.usage.input, both(CACHE_WRITE_FIELD) ? 12 : 12 + 4, 'cache writes as input where either side has no field');
        });

        it(`${label}: a tool loop with signed reasoning goes through`, async () => {
          const ask = clients.get(ingress)!;
          const first = await ask({ model, stream, prompt: '[mock reasoning=on] What is the weather in Paris?', tools: true });
          assert.equal(first.toolCalls[0]?.name, 'get_weather', 'first leg calls the tool');
          assert.equal(first.reasoning, MOCK_REASONING_TEXT, 'first leg reasons');
          const second = await ask({ model, stream, prompt: '', tools: true, history: first.echo });
          assert.equal(second.text, mockText(5), 'the lane took the state back');
          // Same-protocol traffic passes the caller's bytes: what its client left out stays out (DeepSeek refuses it).
          if (BARE_ECHO.has(ingress) && ingress !== lane) {
            const bare = await ask({ model, stream, prompt: '', tools: true, history: first.echoBare });
            assert.equal(bare.text, mockText(5), 'the state rides in the tool-call id alone');
          }
        });
      }
    }
  });
}

/** The body the mock received last, parsed. */
async function lastBody(): Promise<Record<string, any>> {
  const res = await fetch(`${stack.mock.url}/mock/last-request`);
  return JSON.parse(((await res.json()) as { body: string }).body) as Record<string, any>;
}

// One request at a time, so that the mock's last request is the one just made.
describe('signed state, the bytes the lane got', { concurrency: 1 }, () => {
  for (const stream of MODES) {
    const mode = stream ? 'stream' : 'non-stream';

    it(`${mode}: an OpenAI Chat client's tool loop on an Anthropic lane sends Claude's thinking back as it was signed`, async () => {
      const ask = clients.get('openai')!;
      const first = await ask({ model: 'pool-anthropic', stream, prompt: '[mock reasoning=on] What is the weather in Paris?', tools: true });
      const id = first.toolCalls[0]!.id!;
      assert.ok(id.startsWith('toolu_mock_1~'), `the state rides in the call id: ${id.slice(0, 40)}`);
      for (const history of [first.echo, first.echoBare]) {
        await ask({ model: 'pool-anthropic', stream, prompt: '', tools: true, history });
        const body = await lastBody();
        assert.deepEqual(body.messages[1].content[0], {
          type: 'thinking',
          thinking: MOCK_REASONING_TEXT,
          signature: mockSignature('anthropic', MOCK_REASONING_TEXT),
        });
        assert.equal(body.messages[1].content.find((b: { type: string }) => b.type === 'tool_use').id, 'toolu_mock_1');
        assert.equal(body.messages[2].content[0].tool_use_id, 'toolu_mock_1');
      }
    });

    it(`${mode}: an Anthropic client's tool loop on a Gemini lane sends the thought signature back on its call`, async () => {
      const ask = clients.get('anthropic')!;
      const first = await ask({ model: 'pool-gemini', stream, prompt: '[mock reasoning=on] What is the weather in Paris?', tools: true });
      await ask({ model: 'pool-gemini', stream, prompt: '', tools: true, history: first.echo });
      const body = await lastBody();
      const call = body.contents[1].parts.find((p: Record<string, unknown>) => p.functionCall !== undefined);
      assert.equal(call.thoughtSignature, mockSignature('gemini', geminiSubject('get_weather')));
    });

    it(`${mode}: a changed token is the lane's own 400, not a state sent on`, async () => {
      const ask = clients.get('openai')!;
      const first = await ask({ model: 'pool-anthropic', stream, prompt: '[mock reasoning=on] What is the weather in Paris?', tools: true });
      const id = first.toolCalls[0]!.id!;
      const broken = JSON.parse(
        JSON.stringify(first.echoBare)
          .split(id)
          .join(`${id.slice(0, -8)}AAAAAAAA`),
      ) as unknown[];
      await assert.rejects(
        ask({ model: 'pool-anthropic', stream, prompt: '', tools: true, history: broken }),
        (e: unknown) => (e as { status?: number }).status === 400,
      );
    });
  }
});

describe('message_start of a translated Anthropic stream', () => {
  for (const lane of PROTOCOL_NAMES) {
    it(`carries the input tokens when the ${lane} lane told them before any content`, async () => {
      const sdk = (await import('../../helpers/clients/anthropic.js')).anthropicSdk(stack.gateway.url);
      const events = await sdk.messages.create({
        model: `pool-${lane}`,
        max_tokens: 64,
        stream: true,
        messages: [{ role: 'user', content: '[mock cache_read_tokens=3 usage_every_chunk=true] Hi' }],
      });
      let startInput = -1;
      let deltaInput: number | null | undefined;
      for await (const e of events) {
        if (e.type === 'message_start') startInput = e.message.usage.input_tokens;
        if (e.type === 'message_delta') deltaInput = e.usage.input_tokens;
      }
      // Anthropic's own message_start and Gemini's first chunk count the prompt; the others only at their end.
      assert.equal(startInput, lane === 'anthropic' || lane === 'gemini' ? 12 : 0);
      assert.equal(deltaInput, 12, 'message_delta carries the totals');
    });
  }
});
