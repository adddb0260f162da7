import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ollamaCodec } from '../../../../src/shared/protocols/ollama/codec.js';
import { GatewayError } from '../../../../src/shared/errors.js';
import type { StreamEvent } from '../../../../src/shared/model/types.js';
import { STREAM, STREAM_USAGE } from './fixtures.js';
import { assertRelayedWhole } from '../relayed.js';
import { textBlock, toolBlock, turnEnd, withoutLiterals } from '../../../helpers/stream-events.js';
import { chunksAt, randomCuts } from '../../../helpers/byte-cuts.js';
import { lcgRandom } from '../../../helpers/seeded-random.js';

const utf8 = new TextEncoder();

function decode(text: string, cut?: number): StreamEvent[] {
  const dec = ollamaCodec.createStreamDecoder();
  const bytes = utf8.encode(text);
  const out: StreamEvent[] = [];
  if (cut !== undefined) out.push(...dec.push(bytes.subarray(0, cut)), ...dec.push(bytes.subarray(cut)));
  else out.push(...dec.push(bytes));
  out.push(...dec.finish());
  return withoutLiterals(out);
}

/** The events and the error (if any) of `text` cut at `cuts`; literals checked, then left out. */
function decodeAll(text: string, cuts: number[]): { events: StreamEvent[]; error: string | null } {
  const dec = ollamaCodec.createStreamDecoder();
  const bytes = utf8.encode(text);
  const events: StreamEvent[] = [];
  let error: string | null = null;
  try {
    for (const chunk of chunksAt(bytes, cuts)) events.push(...dec.push(chunk));
    events.push(...dec.finish());
  } catch (e) {
    error = e instanceof GatewayError ? `${e.kind}: ${e.message}` : String(e);
  }
  return { events: withoutLiterals(events), error };
}

const EXPECTED: StreamEvent[] = [
  { type: 'start', id: `ollama-${Date.parse('2025-05-01T10:00:00.000000Z')}`, model: 'llama3.2' },
  ...textBlock(0, 'Let me ', 'check ☀️.'),
  ...toolBlock(1, 'call_0', 'get_weather', '{"city":"Paris","days":2}'),
  ...toolBlock(2, 'call_1', 'get_time', '{}'),
  ...turnEnd('tool_calls', STREAM_USAGE),
];

describe('ollama stream decoder', () => {
  it('decodes a real stream, whole and split at every offset', () => {
    assert.deepEqual(decode(STREAM), EXPECTED);
    const len = utf8.encode(STREAM).length;
    for (let cut = 0; cut <= len; cut++) assert.deepEqual(decode(STREAM, cut), EXPECTED, `cut ${cut}`);
  });

  it('reads random text lines the same in place as through JSON.parse', () => {
    // A line with a space before it is trimmed and parsed, never offered to the fast path: the
    // same stream so indented is what the full decoder alone makes of it.
    const rand = lcgRandom(31337);
    const texts = ['"Hi"', '" wörld ☀️"', '"a\\"b\\n"', '"\\u003cb\\u003e"', '""', '"\\q"', '"x\ty"', '"🎉"'];
    const stamp = (i: number): string => `"2025-05-01T10:00:${String(i % 60).padStart(2, '0')}.${rand(1e6)}Z"`;
    const kinds: Array<(i: number) => string> = [
      (i) => `{"model":"llama3.2","created_at":${stamp(i)},"message":{"role":"assistant","content":${texts[rand(texts.length)]}},"done":false}`,
      (i) => `{"model":"llama3.2","created_at":${stamp(i)},"message":{"role":"assistant","content":"","thinking":"hmm"},"done":false}`,
      (i) =>
        `{"model":"llama3.2","created_at":${stamp(i)},"message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"f","arguments":{"a":${i}}}}]},"done":false}`,
      (i) =>
        `{"model":"llama3.2","created_at":${stamp(i)},"message":{"role":"assistant","content":"x"},"done":false,"done":true,"done_reason":"length","eval_count":${i}}`,
      (i) =>
        `{"model":"llama3.2","created_at":${stamp(i)},"message":{"role":"assistant","content":"t${i}"},"done":false,"message":{"role":"assistant","content":"u${i}"}}`,
      () => '{"error":"model runner crashed"}',
      () => '{"model":"llama3.2","created_at":"2025-05-01T10:00:00Z","message":{"role":"assistant","content":"cut',
    ];
    const done =
      '{"model":"llama3.2","created_at":"2025-05-01T10:01:00Z","message":{"role":"assistant","content":""},"done_reason":"stop","done":true,"eval_count":7}';
    for (let n = 0; n < 400; n++) {
      const lines: string[] = [];
      for (let k = rand(12); k > 0; k--) lines.push(kinds[rand(10) < 7 ? 0 : rand(kinds.length)]!(lines.length));
      if (rand(5) > 0) lines.push(done);
      const eol = rand(4) === 0 ? '\r\n' : '\n';
      const text = lines.join(eol) + (rand(3) === 0 ? '' : eol);
      const parsed = lines.map((l) => ` ${l}`).join(eol) + (text.endsWith(eol) ? eol : '');
      const len = utf8.encode(text).length;
      const cuts = randomCuts(rand, len, 4);
      // The indented text is one byte longer per line: it is read whole, cuts do not change what the full decoder does.
      assert.deepEqual(decodeAll(text, cuts), decodeAll(parsed, []), JSON.stringify({ text, cuts }));
    }
  });

  it('hands out the events before an error line, then raises it', () => {
    const dec = ollamaCodec.createStreamDecoder();
    const events = dec.push(utf8.encode(`${STREAM.split('\n')[0]}\n{"error":"model runner crashed"}\n`));
    assert.deepEqual(
      events.map((e) => e.type),
      ['start', 'block_start', 'text_delta'],
    );
    assert.throws(
      () => dec.finish(),
      (e: unknown) => e instanceof GatewayError && e.kind === 'upstream_error' && e.message === 'model runner crashed',
    );
  });

  it('calls a stream cut before the done line an upstream error', () => {
    assert.throws(
      () => decode(STREAM.split('\n')[0] + '\n'),
      (e: unknown) => e instanceof GatewayError && /before its done line/.test(e.message),
    );
  });
});

describe('ollama stream encoder', () => {
  it('holds tool arguments until the call is whole, then writes them as an object', () => {
    const enc = ollamaCodec.createStreamEncoder();
    const lines = [
      { type: 'start', id: 'x', model: 'm' },
      { type: 'block_start', index: 0, kind: 'tool_call', id: 'c1', name: 'f' },
      { type: 'tool_args_delta', index: 0, json: '{"a":' },
      { type: 'tool_args_delta', index: 0, json: '1}' },
      { type: 'block_stop', index: 0 },
      { type: 'finish', reason: 'tool_calls' },
      { type: 'usage', usage: { input: 1, output: 2, cacheRead: 0, cacheCreation: 0 } },
      { type: 'end' },
    ]
      .map((e) => String(enc.encode(e as StreamEvent)))
      .join('')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.equal(lines.length, 2);
    assert.deepEqual(lines[0].message.tool_calls, [{ id: 'c1', function: { name: 'f', arguments: { a: 1 } } }]);
    assert.equal(lines[1].done, true);
    assert.equal(lines[1].done_reason, 'stop');
    assert.equal(lines[1].eval_count, 2);
  });

  it('writes an error line for arguments it cannot carry, then nothing more', () => {
    const enc = ollamaCodec.createStreamEncoder();
    enc.encode({ type: 'block_start', index: 0, kind: 'tool_call', id: 'c1', name: 'f' });
    enc.encode({ type: 'tool_args_delta', index: 0, json: '{"a":' });
    assert.match(String(enc.encode({ type: 'block_stop', index: 0 })), /^\{"error":"arguments of tool call c1 are not valid JSON"\}\n$/);
    assert.equal(enc.encode({ type: 'end' }), '');
  });
});

describe('ollama passthrough', () => {
  it('reads usage from the done line at every split and relays every byte in whole lines', () => {
    const bytes = utf8.encode(STREAM);
    for (let cut = 0; cut <= bytes.length; cut++) {
      const pt = ollamaCodec.createPassthroughStream({});
      const a = bytes.subarray(0, cut);
      const b = bytes.subarray(cut);
      assertRelayedWhole(pt, [a, b]);
      assert.deepEqual(pt.usage(), STREAM_USAGE);
    }
  });

  it('rewrites only the model', () => {
    const raw = '{"model":"pool","messages":[],"options":{"model":"x"}}';
    assert.equal(ollamaCodec.passthroughBody(raw, JSON.parse(raw), 'llama3.2', true), '{"model":"llama3.2","messages":[],"options":{"model":"x"}}');
  });
});
