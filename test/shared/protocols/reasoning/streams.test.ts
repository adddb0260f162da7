// Reasoning blocks through each codec's stream encoder and back through its stream decoder (the
// codec's own family, as its vendor streams it), split at every offset: the reasoning deltas,
// the state and the blocks around them come back as they went, with each protocol's known
// deviations (written below) erased from the expected side.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CODECS } from '../../../../src/shared/protocols/index.js';
import { PROTOCOL_NAMES, type ProtocolName, type ReasoningStateEvent, type StreamEvent } from '../../../../src/shared/model/types.js';
import { textBlock, toolBlock, turnEnd, withoutLiterals } from '../../../helpers/stream-events.js';

/** The state each family's reasoning block carries at its end, as its vendor streams it. */
const STATE: Record<ProtocolName, Omit<ReasoningStateEvent, 'type' | 'index'> | null> = {
  anthropic: { signature: 'EqQBCkgIARAB' },
  bedrock: { signature: 'EqwBCkYIBRgC' },
  gemini: { signature: 'CiQBcsjafPw2' },
  responses: { signature: 'gAAAAABo' },
  openai: null,
  ollama: null,
};

function events(family: ProtocolName): StreamEvent[] {
  const state = STATE[family];
  return [
    { type: 'start', id: 'resp_1', model: 'm' },
    { type: 'block_start', index: 0, kind: 'reasoning', family },
    // A Responses item's id comes with its start (output_item.added); the rest of its state at its end.
    ...(family === 'responses' ? [{ type: 'reasoning_state' as const, index: 0, itemId: 'rs_1' }] : []),
    { type: 'reasoning_delta', index: 0, text: 'Let me ' },
    { type: 'reasoning_delta', index: 0, text: 'think "hard" ☀️' },
    ...(state === null ? [] : [{ type: 'reasoning_state' as const, index: 0, ...state }]),
    { type: 'block_stop', index: 0 },
    ...textBlock(1, 'Checking.'),
    ...toolBlock(2, 'call_1', 'get_weather', '{"city":"Paris"}'),
    ...turnEnd('tool_calls', { input: 10, output: 8, cacheRead: 2, cacheCreation: 0, reasoning: 3 }),
  ];
}

/** The usage without its reasoning count (protocols that report none). */
function withoutReasoningCount(x: StreamEvent): StreamEvent {
  if (x.type !== 'usage') return x;
  const { reasoning: _r, ...usage } = x.usage;
  return { type: 'usage', usage };
}

/** What each protocol cannot carry. */
const DEVIATIONS: Partial<Record<ProtocolName, { note: string; fix: (e: StreamEvent[]) => StreamEvent[] }>> = {
  anthropic: { note: 'no reasoning count in usage (it is in output_tokens)', fix: (e) => e.map(withoutReasoningCount) },
  bedrock: {
    note: 'Converse names neither the response nor the model, and has no reasoning count',
    fix: (e) => e.map((x) => (x.type === 'start' ? { ...x, id: 'bedrock-converse', model: '' } : x)).map(withoutReasoningCount),
  },
  ollama: {
    note: 'no response id of its own, no cache split, no reasoning count',
    fix: (e) =>
      e.map((x) =>
        x.type === 'start'
          ? { ...x, id: 'ollama-0' }
          : x.type === 'usage'
            ? { type: 'usage', usage: { input: 12, output: 8, cacheRead: 0, cacheCreation: 0 } }
            : x,
      ),
  },
};

const utf8 = new TextEncoder();
function bytesOf(out: string | Uint8Array): Uint8Array {
  return typeof out === 'string' ? utf8.encode(out) : out;
}
function concat(parts: Uint8Array[]): Uint8Array {
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return all;
}

for (const name of PROTOCOL_NAMES) {
  const codec = CODECS[name];
  const dev = DEVIATIONS[name];
  describe(`reasoning stream round trip: ${name}`, () => {
    it(`reads back its own reasoning blocks, split at every offset${dev === undefined ? '' : ` (${dev.note})`}`, () => {
      const sent = events(name);
      const enc = codec.createStreamEncoder();
      const bytes = concat(sent.map((e) => bytesOf(enc.encode(e))));
      const expected = dev === undefined ? sent : dev.fix(sent);
      for (let cut = 0; cut <= bytes.length; cut += 3) {
        const dec = codec.createStreamDecoder();
        const got = withoutLiterals([...dec.push(bytes.subarray(0, cut)), ...dec.push(bytes.subarray(cut)), ...dec.finish()]);
        if (name === 'ollama') for (const e of got) if (e.type === 'start') e.id = 'ollama-0';
        assert.deepEqual(got, expected, `cut ${cut}`);
      }
    });
  });
}
