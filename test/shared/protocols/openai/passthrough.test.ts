import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openaiCodec } from '../../../../src/shared/protocols/openai/codec.js';
import { MAX_HELD_FRAME_BYTES } from '../../../../src/shared/protocols/openai/sse-passthrough.js';
import type { PassthroughStream } from '../../../../src/shared/protocols/codec.js';
import { TOOL_STREAM, TOOL_STREAM_FRAMES, TOOL_STREAM_USAGE, TOOL_STREAM_WITHOUT_USAGE } from './fixtures.js';
import { assertRelayedWhole } from '../relayed.js';

const utf8 = new TextEncoder();
const text = new TextDecoder();

function run(pt: PassthroughStream, chunks: Uint8Array[]): string {
  const out: Uint8Array[] = [];
  for (const c of chunks) {
    const o = pt.push(c);
    if (typeof o === 'string') out.push(utf8.encode(o));
    else if (o instanceof Uint8Array) out.push(o);
    else out.push(...o);
  }
  const e = pt.end();
  out.push(typeof e === 'string' ? utf8.encode(e) : e);
  return out.map((o) => text.decode(o, { stream: true })).join('') + text.decode();
}

function splits(bytes: Uint8Array): Uint8Array[][] {
  const all: Uint8Array[][] = [];
  for (let cut = 0; cut <= bytes.length; cut++) all.push([bytes.subarray(0, cut), bytes.subarray(cut)]);
  const ones: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i++) ones.push(bytes.subarray(i, i + 1));
  all.push(ones);
  return all;
}

describe('openai passthroughBody', () => {
  it('rewrites only the model of a non-stream body', () => {
    const raw = '{"model": "pool",\n "messages":[{"role":"user","content":"hi"}], "x_unknown": {"model":"keep"}}';
    assert.equal(
      openaiCodec.passthroughBody(raw, JSON.parse(raw), 'gpt-4o', false),
      '{"model": "gpt-4o",\n "messages":[{"role":"user","content":"hi"}], "x_unknown": {"model":"keep"}}',
    );
  });

  it("adds include_usage to a stream, keeping the caller's other stream options", () => {
    const raw = '{"model":"gpt-4o","stream":true,"stream_options":{"include_obfuscation":false},"messages":[]}';
    const out = openaiCodec.passthroughBody(raw, JSON.parse(raw), 'gpt-4o', true);
    assert.equal(out, '{"model":"gpt-4o","stream":true,"stream_options":{"include_obfuscation":false,"include_usage":true},"messages":[]}');
    const bare = '{"model":"gpt-4o","stream":true}';
    assert.equal(
      openaiCodec.passthroughBody(bare, JSON.parse(bare), 'gpt-4o', true),
      '{"stream_options":{"include_usage":true},"model":"gpt-4o","stream":true}',
    );
  });

  it('leaves a stream that already asks for usage byte for byte', () => {
    const raw = '{"model":"gpt-4o","stream":true,"stream_options":{"include_usage":true}}';
    assert.equal(openaiCodec.passthroughBody(raw, JSON.parse(raw), 'gpt-4o', true), raw);
  });
});

describe('openai passthrough stream', () => {
  const bytes = utf8.encode(TOOL_STREAM);

  it('drops the usage chunk the caller did not ask for, at every split, and still meters it', () => {
    for (const chunks of splits(bytes)) {
      const pt = openaiCodec.createPassthroughStream({ stream: true });
      assert.equal(run(pt, chunks), TOOL_STREAM_WITHOUT_USAGE);
      assert.deepEqual(pt.usage(), TOOL_STREAM_USAGE);
    }
  });

  it("reads the usage chunk by the lane's learnt shape alike, at every split, stream after stream", () => {
    const memo = { usageEvent: null, eventShapes: null, responsesDeltas: null, chatDeltas: null, geminiText: null };
    for (const asked of [false, true]) {
      for (const chunks of splits(bytes)) {
        const pt = openaiCodec.createPassthroughStream(asked ? { stream: true, stream_options: { include_usage: true } } : { stream: true }, memo);
        assert.equal(run(pt, chunks), asked ? TOOL_STREAM : TOOL_STREAM_WITHOUT_USAGE);
        assert.deepEqual(pt.usage(), TOOL_STREAM_USAGE);
      }
    }
    assert.notEqual(memo.usageEvent, null);
  });

  it('relays every byte, in whole events, when the caller asked for usage', () => {
    for (const chunks of splits(bytes)) {
      const pt = openaiCodec.createPassthroughStream({ stream: true, stream_options: { include_usage: true } });
      assertRelayedWhole(pt, chunks);
      assert.deepEqual(pt.usage(), TOOL_STREAM_USAGE);
    }
  });

  it('returns the same chunk object when a chunk holds only whole frames without the usage chunk', () => {
    const pt = openaiCodec.createPassthroughStream({ stream: true });
    const frame = utf8.encode('data: {"id":"a","choices":[{"index":0,"delta":{"content":"x"}}],"usage":null}\n\n');
    assert.equal(pt.push(frame), frame);
    assert.equal(pt.usage(), null);
  });

  it('keeps a frame end split by an empty chunk', () => {
    const lf = TOOL_STREAM.indexOf('\n\n', TOOL_STREAM.indexOf('"choices":[]')) + 1;
    for (const text of [TOOL_STREAM, TOOL_STREAM.replaceAll('\n', '\r\n')]) {
      const at = text === TOOL_STREAM ? lf : text.indexOf('\r\n\r\n', text.indexOf('"choices":[]')) + 2;
      const all = utf8.encode(text);
      const cut = utf8.encode(text.slice(0, at)).length;
      const pt = openaiCodec.createPassthroughStream({ stream: true });
      const out = run(pt, [all.subarray(0, cut), new Uint8Array(0), all.subarray(cut, cut + 1), new Uint8Array(0), all.subarray(cut + 1)]);
      assert.equal(out, text === TOOL_STREAM ? TOOL_STREAM_WITHOUT_USAGE : TOOL_STREAM_WITHOUT_USAGE.replaceAll('\n', '\r\n'));
      assert.deepEqual(pt.usage(), TOOL_STREAM_USAGE);
    }
  });

  it('copes with CRLF frames', () => {
    const crlf = utf8.encode(TOOL_STREAM.replaceAll('\n', '\r\n'));
    for (const chunks of splits(crlf).filter((_, i) => i % 7 === 0)) {
      const pt = openaiCodec.createPassthroughStream({ stream: true });
      assert.equal(run(pt, chunks), TOOL_STREAM_WITHOUT_USAGE.replaceAll('\n', '\r\n'));
      assert.deepEqual(pt.usage(), TOOL_STREAM_USAGE);
    }
  });

  it('reads a last usage frame that has no blank line after it', () => {
    const pt = openaiCodec.createPassthroughStream({ stream: true });
    const out = run(pt, [utf8.encode('data: {"id":"a","choices":[],"usage":{"prompt_tokens":4,"completion_tokens":1}}')]);
    assert.equal(out, '');
    assert.deepEqual(pt.usage(), { input: 4, output: 1, cacheRead: 0, cacheCreation: 0 });
  });

  it('passes an oversized frame through unread and keeps working after it', () => {
    const pt = openaiCodec.createPassthroughStream({ stream: true });
    const big = `data: {"id":"a","choices":[{"index":0,"delta":{"content":"${'x'.repeat(2 * MAX_HELD_FRAME_BYTES)}"}}]}\n\n`;
    const [finish = '', usage = '', done = ''] = TOOL_STREAM_FRAMES.slice(-3);
    const tail = finish + usage + done;
    const all = utf8.encode(big + tail);
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < all.length; i += 64 * 1024) chunks.push(all.subarray(i, i + 64 * 1024));
    const out = run(pt, chunks);
    assert.equal(out, big + finish + done);
    assert.deepEqual(pt.usage(), TOOL_STREAM_USAGE);
  });
});

describe('openai passthrough stream, chunks of many frames (one upstream read)', () => {
  const decode = (o: string | Uint8Array | readonly Uint8Array[]): string =>
    typeof o === 'string' ? o : o instanceof Uint8Array ? text.decode(o) : o.map((p) => text.decode(p)).join('');

  it('cuts the usage chunk without copying the stream: the rest goes out as views of the chunk', () => {
    const pt = openaiCodec.createPassthroughStream({});
    const chunk = utf8.encode(TOOL_STREAM);
    const out = pt.push(chunk);
    assert.ok(Array.isArray(out), 'parts around the cut frame');
    for (const part of out as readonly Uint8Array[]) assert.equal(part.buffer, chunk.buffer, 'a view of the upstream chunk, not a copy');
    assert.equal(decode(out) + decode(pt.end()), TOOL_STREAM_WITHOUT_USAGE);
    assert.deepEqual(pt.usage(), TOOL_STREAM_USAGE);
  });

  it('passes a chunk with only "usage":null frames as the same object', () => {
    const pt = openaiCodec.createPassthroughStream({ stream_options: { include_usage: true } });
    const frames =
      'data: {"choices":[{"index":0,"delta":{"content":"a"}}],"usage":null}\n\ndata: {"choices":[{"index":0,"delta":{"content":"b"}}],"usage": null}\n\n';
    const chunk = utf8.encode(frames);
    assert.equal(pt.push(chunk), chunk);
    assert.equal(pt.usage(), null);
  });

  it('holds an unfinished last frame and cuts it when it completes as the usage chunk', () => {
    const pt = openaiCodec.createPassthroughStream({});
    const content = 'data: {"choices":[{"index":0,"delta":{"content":"a"}}],"usage":null}\n\n';
    const usageFrame = 'data: {"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}\n\n';
    const whole = `${content}${usageFrame}data: [DONE]\n\n`;
    for (let cut = content.length + 1; cut < content.length + usageFrame.length; cut += 7) {
      const p = openaiCodec.createPassthroughStream({});
      const out = decode(p.push(utf8.encode(whole.slice(0, cut)))) + decode(p.push(utf8.encode(whole.slice(cut)))) + decode(p.end());
      assert.equal(out, `${content}data: [DONE]\n\n`, `cut at ${cut}`);
      assert.equal(p.usage()?.output, 2);
    }
    void pt;
  });
});
