// Same-protocol streams reach the caller in whole events only, so that an error event written
// after a failure never follows half an event (the SDK would raise a parse error, not its API
// error). At every split of a vendor stream, what has been written so far is whole events.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CODECS } from '../../../../src/shared/protocols/index.js';
import { HELD_BYTES_MAX, WholeEventsPassthrough, sseEventEnds } from '../../../../src/shared/protocols/framing/whole-events.js';
import type { PassthroughStream } from '../../../../src/shared/protocols/codec.js';
import { bytesOf } from '../relayed.js';
import { vendorStream as anthropicStream } from '../anthropic/fixtures.js';
import { vendorStream as bedrockStream } from '../bedrock/fixtures.js';
import { STREAM as ollamaStream } from '../ollama/fixtures.js';

/** Byte offsets where an event of the stream ends. */
function eventEndsOf(bytes: Buffer, framing: 'sse' | 'ndjson' | 'eventstream'): Set<number> {
  const ends = new Set<number>([0]);
  if (framing === 'eventstream') {
    for (let at = 0; at < bytes.length; ) ends.add((at += bytes.readUInt32BE(at)));
    return ends;
  }
  const sep = framing === 'sse' ? '\n\n' : '\n';
  for (let at = bytes.indexOf(sep); at !== -1; at = bytes.indexOf(sep, at + 1)) ends.add(at + sep.length);
  return ends;
}

function checkEverySplit(name: string, create: () => PassthroughStream, bytes: Buffer, framing: 'sse' | 'ndjson' | 'eventstream'): void {
  it(`${name}: at every pair of cuts, the bytes written so far end where an event ends`, () => {
    const ends = eventEndsOf(bytes, framing);
    const step = Math.max(1, Math.floor(bytes.length / 60));
    for (let cut1 = 0; cut1 <= bytes.length; cut1 += step) {
      for (let cut2 = cut1; cut2 <= bytes.length; cut2 += step * 3) {
        const p = create();
        let written = 0;
        for (const chunk of [bytes.subarray(0, cut1), bytes.subarray(cut1, cut2), bytes.subarray(cut2)]) {
          written += bytesOf(p.push(chunk)).length;
          assert.ok(ends.has(written), `${written} bytes written after cuts ${cut1}/${cut2}: not an event end`);
        }
        assert.equal(bytesOf(p.end()).length, 0, 'the stream ended whole: nothing held');
      }
    }
  });
}

describe('whole events on same-protocol streams', () => {
  checkEverySplit('anthropic SSE', () => CODECS.anthropic.createPassthroughStream({}), Buffer.from(anthropicStream), 'sse');
  checkEverySplit('ollama NDJSON', () => CODECS.ollama.createPassthroughStream({}), Buffer.from(ollamaStream), 'ndjson');
  checkEverySplit('bedrock event stream', () => CODECS.bedrock.createPassthroughStream({}), Buffer.from(bedrockStream), 'eventstream');

  it('an SSE blank line split across chunks ends the event (LF | LF, CRLF | CRLF)', () => {
    for (const [first, second] of [
      ['data: a\n', '\ndata: b\n\n'],
      ['data: a\r\n', '\r\ndata: b\r\n\r\n'],
      ['data: a\r\n\r', '\ndata: b\r\n\r\n'],
    ]) {
      const p = CODECS.gemini.createPassthroughStream({});
      assert.equal(bytesOf(p.push(Buffer.from(first!))).length, 0);
      assert.equal(bytesOf(p.push(Buffer.from(second!))).toString(), first! + second!);
    }
  });

  it('a chunk that ends where an event ends comes back as the same object (no copy)', () => {
    const p = CODECS.anthropic.createPassthroughStream({});
    const chunk = Buffer.from('event: ping\ndata: {"type":"ping"}\n\n');
    assert.equal(p.push(chunk), chunk);
  });

  it('an unfinished event is written when the upstream ends normally', () => {
    const p = CODECS.gemini.createPassthroughStream({});
    assert.equal(bytesOf(p.push(Buffer.from('data: {"a":1}'))).length, 0);
    assert.equal(bytesOf(p.end()).toString(), 'data: {"a":1}');
  });

  it('a tail over the bound is released as is, never held without limit', () => {
    const inner: PassthroughStream = { push: (c) => c, end: () => '', usage: () => null };
    const p = new WholeEventsPassthrough(inner, sseEventEnds);
    const big = Buffer.alloc(HELD_BYTES_MAX, 0x61);
    assert.equal(bytesOf(p.push(Buffer.from('data: '))).length, 0);
    assert.equal(bytesOf(p.push(big)).length, big.length + 6);
  });
});
