// The frame writer (./frame-writer.ts: frames carved from a slab, payload UTF-8 encoded by a
// loop, the message CRC carried across constant bytes) against @smithy/eventstream-codec:
// seeded random streams of events, encoded by the stream encoder, must be byte for byte the
// codec's frames of the same headers and payload, and decode back with the codec.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FinishReason, StreamEvent } from '../../../../src/shared/model/types.js';
import { BedrockStreamEncoder } from '../../../../src/shared/protocols/bedrock/stream-encoder.js';
import { eventFrames } from '../../../../src/shared/protocols/bedrock/event-stream.js';
import { stopReasonFromFinish } from '../../../../src/shared/protocols/bedrock/finish-reason.js';
import { usageToBedrock } from '../../../../src/shared/protocols/bedrock/usage.js';
import { awsCodec, rawEventFrame } from './fixtures.js';
import { seededFloats } from '../../../helpers/seeded-random.js';

const PIECES = ['a', 'Z', ' ', '"', '\\', '\n', '\t', '\u0001', '/', 'é', 'ß', '世', '☀️', '🎉', '\u2028', '\ud800', '\udc00', '<', '{"x":1}'];

function text(rnd: () => number, long: boolean): string {
  const n = long ? 200 + Math.floor(rnd() * 800) : Math.floor(rnd() * 24);
  let s = '';
  for (let i = 0; i < n; i++) s += PIECES[Math.floor(rnd() * PIECES.length)];
  return s;
}

/** A random stream and the frames the codec writes for it (event type, payload). */
function stream(rnd: () => number): { events: StreamEvent[]; frames: [string, string][] } {
  const events: StreamEvent[] = [{ type: 'start', id: 'msg', model: 'm' } as StreamEvent];
  const frames: [string, string][] = [['messageStart', '{"role":"assistant"}']];
  const blocks = 1 + Math.floor(rnd() * 40); // past the 32 shared block templates too
  for (let index = 0; index < blocks; index++) {
    const tool = rnd() < 0.3;
    if (tool) {
      const id = `call_${index}`;
      const name = text(rnd, false);
      events.push({ type: 'block_start', index, kind: 'tool_call', id, name });
      frames.push(['contentBlockStart', JSON.stringify({ contentBlockIndex: index, start: { toolUse: { toolUseId: id, name } } })]);
    } else events.push({ type: 'block_start', index, kind: 'text' });
    const deltas = Math.floor(rnd() * 6);
    for (let d = 0; d < deltas; d++) {
      const t = text(rnd, rnd() < 0.1);
      const literal = rnd() < 0.5 ? JSON.stringify(t) : undefined;
      if (tool) {
        events.push({ type: 'tool_args_delta', index, json: t, literal });
        frames.push(['contentBlockDelta', `{"contentBlockIndex":${index},"delta":{"toolUse":{"input":${JSON.stringify(t)}}}}`]);
      } else {
        events.push({ type: 'text_delta', index, text: t, literal });
        frames.push(['contentBlockDelta', `{"contentBlockIndex":${index},"delta":{"text":${JSON.stringify(t)}}}`]);
      }
    }
    events.push({ type: 'block_stop', index });
    frames.push(['contentBlockStop', `{"contentBlockIndex":${index}}`]);
  }
  const reason = (['stop', 'length', 'tool_calls', 'content_filter'] as FinishReason[])[Math.floor(rnd() * 4)]!;
  events.push({ type: 'finish', reason });
  frames.push(['messageStop', `{"stopReason":"${stopReasonFromFinish(reason)}"}`]);
  const usage = { input: Math.floor(rnd() * 1e6), output: Math.floor(rnd() * 1e4), cacheRead: Math.floor(rnd() * 100), cacheCreation: 0 };
  events.push({ type: 'usage', usage });
  events.push({ type: 'end' } as StreamEvent);
  frames.push(['metadata', JSON.stringify({ usage: usageToBedrock(usage), metrics: { latencyMs: 0 } })]);
  return { events, frames };
}

describe('bedrock frame writer', () => {
  it("random streams: every frame is the codec's, byte for byte, and decodes back", () => {
    for (let seed = 1; seed <= 300; seed++) {
      const rnd = seededFloats(seed);
      const { events, frames } = stream(rnd);
      const encoder = new BedrockStreamEncoder();
      const got = events.map((e) => encoder.encode(e)).filter((f): f is Uint8Array => typeof f !== 'string' && f.length > 0);
      assert.equal(got.length, frames.length, `seed ${seed}`);
      got.forEach((frame, i) => {
        const [type, payload] = frames[i]!;
        assert.deepEqual(Buffer.from(frame), Buffer.from(rawEventFrame(type, payload)), `seed ${seed}, frame ${i} (${type})`);
        const back = awsCodec.decode(frame);
        assert.equal(back.headers[':event-type']?.value, type);
        assert.equal(Buffer.from(back.body).toString(), Buffer.from(payload).toString());
      });
    }
  });

  it("raw text in any part (lone surrogates, pairs, long text) is the codec's UTF-8", () => {
    const rnd = seededFloats(7);
    // The parts may not split a surrogate pair (the writer's contract): none ends in a high one.
    const part = (long: boolean) => text(rnd, long).replace(/[\ud800-\udbff]$/, 'x');
    for (let i = 0; i < 500; i++) {
      const start = rnd() < 0.5 ? '' : part(false);
      const a = part(rnd() < 0.2);
      const b = rnd() < 0.5 ? '' : part(false);
      const frame = eventFrames('contentBlockDelta', start)(a, b);
      assert.deepEqual(Buffer.from(frame), Buffer.from(rawEventFrame('contentBlockDelta', start + a + b)), `case ${i}`);
    }
  });

  it('a frame is not overwritten by the frames after it', () => {
    const frames = eventFrames('messageStop');
    const first = frames('{"stopReason":"end_turn"}');
    const copy = Buffer.from(first);
    for (let i = 0; i < 2000; i++) frames(`{"n":${i}}`.padEnd(100, ' '));
    assert.deepEqual(Buffer.from(first), copy);
  });
});
