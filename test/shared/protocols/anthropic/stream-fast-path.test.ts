// The content_block_delta fast path reads an event only when JSON.parse would give the same
// index and text (or partial JSON) and nothing else; seeded random variants against JSON.parse.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { matchBlockDeltaEvent, readBlockDelta, type BlockDelta } from '../../../../src/shared/protocols/anthropic/stream-fast-path.js';
import { eventEndsAt } from '../../../../src/shared/protocols/framing/sse.js';
import { parseOrSkip } from '../parse-or-skip.js';
import { lcgRandom } from '../../../helpers/seeded-random.js';

function slow(data: string): BlockDelta | null {
  const m = parseOrSkip(data) as any;
  if (m === undefined) return null;
  if (m?.type !== 'content_block_delta' || typeof m.index !== 'number' || Object.keys(m).join() !== 'type,index,delta') return null;
  const d = m.delta;
  if (d?.type === 'text_delta' && Object.keys(d).join() === 'type,text' && typeof d.text === 'string' && d.text !== '')
    return { index: m.index, text: true, value: d.text, literal: undefined };
  if (d?.type === 'input_json_delta' && Object.keys(d).join() === 'type,partial_json' && typeof d.partial_json === 'string' && d.partial_json !== '')
    return { index: m.index, text: false, value: d.partial_json, literal: undefined };
  return null;
}

/** The fast path on `data` alone. */
const whole = (data: string, out: BlockDelta): boolean => readBlockDelta(data, 0, data.length, out);

describe('anthropic content_block_delta fast path', () => {
  it('reads text and input-json deltas as JSON.parse does', () => {
    const out: BlockDelta = { index: -1, text: false, value: '', literal: undefined };
    assert.ok(whole('{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi \\"x\\" é"}}', out));
    assert.deepEqual(out, { index: 0, text: true, value: 'Hi "x" é', literal: undefined });
    assert.ok(whole('{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi é"}}', out));
    assert.deepEqual(out, { index: 0, text: true, value: 'Hi é', literal: '"Hi é"' });
    assert.ok(whole('{"type":"content_block_delta","index":12,"delta":{"type":"input_json_delta","partial_json":"{\\"a\\":"}}', out));
    assert.deepEqual(out, { index: 12, text: false, value: '{"a":', literal: undefined });
    for (const bad of [
      '{"type":"content_block_delta","index":01,"delta":{"type":"text_delta","text":"x"}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":""}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"},"extra":1}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"x"}}',
      '{"type":"content_block_delta","index":1234567890,"delta":{"type":"text_delta","text":"x"}}',
    ]) {
      assert.equal(readBlockDelta(bad, 0, bad.length, out), false, bad);
      assert.equal(readBlockDelta(`x${bad}\n`, 1, bad.length + 1, out), false, bad);
    }
  });

  it('never reads a random variant differently from JSON.parse', () => {
    const rand = lcgRandom(4242);
    const pieces = ['a', 'é', '\\"', '\\\\', '\\n', '\\u00e9', '\\ud83d', '"', '\\', '\t', '\\x', '}'];
    const indexes = ['0', '7', '42', '00', '-1', '1.5', '', '123456789'];
    const kinds = [',"delta":{"type":"text_delta","text":', ',"delta":{"type":"input_json_delta","partial_json":', ',"delta":{"type":"text","text":'];
    const tails = ['}}', '}}}', '},"x":1}', '}'];
    const out: BlockDelta = { index: 0, text: true, value: '', literal: undefined };
    let fast = 0;
    for (let i = 0; i < 20_000; i++) {
      let lit = '"';
      for (let k = rand(5); k > 0; k--) lit += pieces[rand(pieces.length)];
      if (rand(10) > 0) lit += '"';
      const data = `{"type":"content_block_delta","index":${indexes[rand(indexes.length)]}${kinds[rand(kinds.length)]}${lit}${tails[rand(tails.length)]}`;
      // Alone, in place inside a larger text (the SSE reader's in-place offer), or as a whole
      // event whose line ends are not known yet (its line reader's offer).
      let ok: boolean;
      if (i % 3 === 0) ok = readBlockDelta(data, 0, data.length, out);
      else if (i % 3 === 1) ok = readBlockDelta(`data: ${data}\n\n`, 6, 6 + data.length, out);
      else {
        const event = `event: content_block_delta\ndata: ${data}\n\nevent: x\n`;
        const end = matchBlockDeltaEvent(event, 0, out);
        ok = end >= 0 && eventEndsAt(event, end, true);
        if (ok) assert.equal(end, event.indexOf('\n\n'), data);
      }
      if (ok) {
        fast++;
        // The literal, when given, is exactly what an encoder would have written for the value.
        if (out.literal !== undefined) assert.equal(out.literal, JSON.stringify(out.value), data);
        assert.deepEqual({ ...out, literal: undefined }, slow(data), data);
      }
    }
    assert.ok(fast > 1000, `fast path took ${fast}`);
  });
});
