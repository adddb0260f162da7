// The text-chunk fast path reads a chunk only when the full decoder would take the same text
// and the same usageMetadata from it and nothing else: checked on known shapes and on seeded
// random variants against JSON.parse (the end-to-end byte comparison is
// test/integration/translation/fast-path-identity).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { GeminiTextChunkReader, type GeminiTextLayouts } from '../../../../src/shared/protocols/gemini/stream-fast-path.js';
import { eventEndsAt } from '../../../../src/shared/protocols/framing/sse.js';
import { isFinishReason } from '../../../../src/shared/protocols/gemini/finish-reason.js';
import { parseOrSkip } from '../parse-or-skip.js';

type Json = Record<string, unknown>;
interface Read {
  text: string;
  usage: Json | null;
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What the full decoder takes from the chunk once started and before finish, when that is one
 * text delta and nothing else (and the latest usage when the chunk has one); else null.
 */
function slowRead(data: string): Read | null {
  const obj = parseOrSkip(data);
  if (obj === undefined) return null;
  if (!isObject(obj) || isObject(obj.error)) return null;
  const candidate = Array.isArray(obj.candidates) && isObject(obj.candidates[0]) ? obj.candidates[0] : undefined;
  if (candidate === undefined || isFinishReason(candidate.finishReason)) return null;
  const parts = isObject(candidate.content) && Array.isArray(candidate.content.parts) ? candidate.content.parts : [];
  const texts: string[] = [];
  for (const p of parts) {
    if (!isObject(p)) continue;
    if (typeof p.text === 'string') {
      if (p.thought !== true && p.text.length > 0) texts.push(p.text);
    } else if (isObject(p.functionCall) && typeof p.functionCall.name === 'string') return null;
  }
  if (texts.length !== 1) return null;
  return { text: texts[0]!, usage: isObject(obj.usageMetadata) ? obj.usageMetadata : null };
}

/** The reader's result for `data` (alone, or in place inside a larger text), or null; checks its literal. */
function read(r: GeminiTextChunkReader, data: string, inPlace = false): Read | null {
  const before = 'data: {"x":1}\r\n\r\ndata: ';
  const ok = inPlace ? r.read(`${before}${data}\n\ndata: {"y":2}\n\n`, before.length, before.length + data.length) : r.read(data, 0, data.length);
  if (!ok) return null;
  // The literal, when given, is exactly what an encoder would have written for the text.
  if (r.literal !== undefined) assert.equal(r.literal, JSON.stringify(r.text), data);
  return { text: r.text, usage: r.usage };
}

/** A chunk as generativelanguage.googleapis.com writes it (a space after each colon). */
const api = (
  lit: string,
  usage = '"usageMetadata": {"promptTokenCount": 8,"candidatesTokenCount": 2,"totalTokenCount": 10,"promptTokensDetails": [{"modality": "TEXT","tokenCount": 8}]},',
): string =>
  `{"candidates": [{"content": {"parts": [{"text": ${lit}}],"role": "model"},"index": 0}],${usage}"modelVersion": "gemini-2.5-flash","responseId": "Y2xhdWRl"}`;
/** A chunk as Vertex AI writes it: role before parts, no index, createTime. */
const vertex = (lit: string): string =>
  `{"candidates": [{"content": {"role": "model","parts": [{"text": ${lit}}]}}],"usageMetadata": {"trafficType": "ON_DEMAND"},"modelVersion": "gemini-2.5-flash","createTime": "2026-03-10T14:54:45.066123Z","responseId": "tTCw"}`;
/** A chunk as the mock writes it (JSON.stringify: no spaces, no usage until the last chunk). */
const compact = (lit: string): string =>
  `{"candidates":[{"content":{"parts":[{"text":${lit}}],"role":"model"},"index":0}],"modelVersion":"mock-model","responseId":"r"}`;

describe('gemini text-chunk fast path', () => {
  it('reads plain and escaped text in the API, Vertex AI and compact spellings, with its usage', () => {
    const r = new GeminiTextChunkReader();
    assert.deepEqual(read(r, api('"Hello"')), {
      text: 'Hello',
      usage: { promptTokenCount: 8, candidatesTokenCount: 2, totalTokenCount: 10, promptTokensDetails: [{ modality: 'TEXT', tokenCount: 8 }] },
    });
    assert.equal(r.literal, '"Hello"');
    const counts = '"usageMetadata": {"promptTokenCount": 8,"candidatesTokenCount": 4,"totalTokenCount": 12},';
    assert.deepEqual(read(r, api('" wörld ☀️"', counts), true), {
      text: ' wörld ☀️',
      usage: { promptTokenCount: 8, candidatesTokenCount: 4, totalTokenCount: 12 },
    });
    assert.deepEqual(read(r, api('"a\\"b\\n\\u00e9"', '')), { text: 'a"b\né', usage: null });
    assert.equal(r.literal, undefined, 'escapes are not passed on as written');
    assert.deepEqual(read(r, vertex('"Hi"')), { text: 'Hi', usage: { trafficType: 'ON_DEMAND' } });
    assert.deepEqual(read(r, vertex('"again"'), true), { text: 'again', usage: { trafficType: 'ON_DEMAND' } });
    assert.deepEqual(read(r, compact('"x"')), { text: 'x', usage: null });
    assert.deepEqual(read(r, compact('"y"'), true), { text: 'y', usage: null });
    assert.deepEqual(read(r, ` {"candidates" : [ {"content" : { "parts" : [ { "text" :\t"z" } ] } } ] } `), { text: 'z', usage: null });
  });

  it('leaves every other chunk to the full decoder', () => {
    const r = new GeminiTextChunkReader();
    const part = (p: string): string => `{"candidates": [{"content": {"parts": [${p}],"role": "model"},"index": 0}],"modelVersion": "m"}`;
    const candidate = (rest: string): string => `{"candidates": [{"content": {"parts": [{"text": "x"}],"role": "model"}${rest}}],"modelVersion": "m"}`;
    const top = (extra: string): string => `{"candidates": [{"content": {"parts": [{"text": "x"}]}}]${extra}}`;
    for (const data of [
      api('""'), // an empty text adds nothing
      part('{"text": "x","thought": true}'),
      part('{"thought": true,"text": "x"}'),
      part('{"text": "x","thoughtSignature": "CiQB"}'),
      part('{"text": "x"},{"text": "y"}'),
      part('{"functionCall": {"name": "f","args": {}}}'),
      candidate(',"finishReason": "STOP"'),
      candidate(',"finishReason": "FINISH_REASON_UNSPECIFIED"'),
      candidate(',"safetyRatings": []'),
      candidate(',"index": 01'),
      candidate('},{"content": {"parts": [{"text": "y"}]}'),
      `{"candidates": [{"content": {"parts": [{"text": "x"}],"parts": []}}]}`,
      `{"candidates": [{"index": 0,"content": {"parts": [{"text": "x"}]}}]}`,
      top(',"error": {"code": 500}'),
      top(',"promptFeedback": {"blockReason": "OTHER"}'),
      top(',"usageMetadata": {"totalTokenCount": 1},"usageMetadata": {"totalTokenCount": 2}'),
      top(',"usageMetadata": null'),
      top(',"usageMetadata": {"totalTokenCount": }'),
      top(',"usageMetadata": {"totalTokenCount": 1'),
      top(',"candidates": []'),
      top(',"foo": 1'),
      top(',"model\\u0056ersion": "m"'),
      top(',"modelVersion": "a\\"b"'),
      top(',"modelVersion": 1'),
      `{"modelVersion": "m","candidates": [{"content": {"parts": [{"text": "x"}]}}]}`,
      `{"candid\\u0061tes": [{"content": {"parts": [{"text": "x"}]}}]}`,
      api('"bad \\q escape"'),
      api('"raw \t tab"'),
      api('"unclosed'),
      api('"x"') + ' x',
      api('"x"').slice(0, -1),
      `[${api('"x"')}]`,
    ]) {
      assert.equal(read(r, data), null, data);
      assert.equal(read(r, data, true), null, data);
      // Also after a recognised chunk, whose head and tail the reader then compares against.
      assert.ok(read(r, api('"ok"')) !== null);
      assert.equal(read(r, data), null, data);
      assert.ok(read(r, vertex('"ok"')) !== null);
      assert.equal(read(r, data, true), null, data);
    }
  });

  it('keeps a lane layout: the next streams, another responseId and createTime, are read by it; a stream with usage is not tried against it', () => {
    const layouts: GeminiTextLayouts = { text: null };
    assert.deepEqual(read(new GeminiTextChunkReader(layouts), compact('"one"')), { text: 'one', usage: null });
    const learnt = layouts.text;
    assert.notEqual(learnt, null);
    const next = compact('"two \\"q\\""').replace('"responseId":"r"', '"responseId":"another-id"');
    assert.deepEqual(read(new GeminiTextChunkReader(layouts), next, true), { text: 'two "q"', usage: null });
    assert.equal(layouts.text, learnt);
    assert.equal(learnt!.misses, 0);
    // Vertex AI's chunks carry usageMetadata: read the long way, and the layout left alone.
    const withUsage = new GeminiTextChunkReader(layouts);
    assert.equal(read(withUsage, vertex('"x"'))?.text, 'x');
    assert.equal(read(withUsage, vertex('"y"'))?.text, 'y');
    assert.equal(layouts.text, learnt);
  });

  it('never reads a random variant differently from JSON.parse', () => {
    // xorshift32: an LCG's low bits repeat with short periods, which would tie the choices together.
    let seed = 4242;
    const rand = (n: number): number => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) % n;
    };
    const pick = (xs: readonly string[]): string => xs[rand(xs.length)]!;
    const sp = (): string => pick(['', '', ' ', ' ', '  ', '\t']);
    /** Mostly a piece of a shape the fast path reads, one time in six one it leaves to the full decoder. */
    const either = (known: readonly string[], odd: readonly string[]): string => pick(rand(6) === 0 ? odd : known);
    const textPieces = ['a', ' ', 'é', '☀️', '🎉', '\\"', '\\\\', '\\n', '\\u00e9', '\\ud83d', '\\/', '}', ']', ',"', '{"text": '];
    const oddTextPieces = ['"', '\\', '\t', '\\x', '\\u12'];
    const usages = [
      '{"promptTokenCount": 8,"totalTokenCount": 9}',
      '{"promptTokenCount": 8,"totalTokenCount": 10,"promptTokensDetails": [{"modality": "TEXT","tokenCount": 8}]}',
      '{"trafficType": "ON_DEMAND"}',
      '{"a": "}{\\"]","b": [[{}]]}',
      '{}',
      '{"a": 1,"a": 2}',
    ];
    const oddUsages = ['{"a": }', '{"a": [1}', '{"a": "\\q"}', 'null', '[]', '{"a": 1', '{"a": "\t"}'];
    const partTails = [''];
    const oddPartTails = [',"thought": true', ',"thought": false', ',"text": "dup"', '},{"text": "b"', ',"thoughtSignature": "s"'];
    const contentTails = ['', ',"role": "model"', ',"role": "model","role": "user"'];
    const oddContentTails = [',"parts": []', ',"role": 1', ',"role": "a\\"b"'];
    const candidateTails = ['', ',"index": 0', ',"index": 1', ',"index": null'];
    const oddCandidateTails = [
      ',"finishReason": "STOP"',
      ',"finishReason": "FINISH_REASON_UNSPECIFIED"',
      ',"finishReason": ""',
      '},{"content": {"parts": [{"text": "c2"}]}',
      ',"safetyRatings": []',
      ',"index": -1',
    ];
    const keys = ['"usageMetadata"', '"usageMetadata"', '"modelVersion"', '"responseId"', '"createTime"'];
    const oddKeys = ['"error"', '"promptFeedback"', '"candidates"', '"foo"', '"model\\u0056ersion"'];
    const values = ['"gemini-2.5-flash"', '"Y2xhdWRl"', '""'];
    const oddValues = ['"a\\"b"', '1', 'null', '{"code": 1}', '[]'];
    const r = new GeminiTextChunkReader();
    const layouts: GeminiTextLayouts = { text: null };
    let byLine = 0;
    let fast = 0;
    let withUsage = 0;
    for (let i = 0; i < 30_000; i++) {
      let lit = '"';
      for (let k = rand(6); k > 0; k--) lit += either(textPieces, oddTextPieces);
      if (rand(12) > 0) lit += '"';
      const roleFirst = rand(3) === 0 ? `"role":${sp()}"model",${sp()}` : '';
      let data = `{${sp()}"candidates":${sp()}[{"content":${sp()}{${roleFirst}"parts":${sp()}[{"text":${sp()}${lit}${either(partTails, oddPartTails)}}]${either(contentTails, oddContentTails)}}${either(candidateTails, oddCandidateTails)}}]`;
      for (let k = rand(4); k > 0; k--) {
        const key = either(keys, oddKeys);
        data += `,${key}:${sp()}${key === '"usageMetadata"' ? either(usages, oddUsages) : either(values, oddValues)}`;
      }
      data += `}${sp()}`;
      if (rand(30) === 0) {
        // A character dropped or doubled anywhere.
        const at = rand(data.length);
        data = rand(2) === 0 ? data.slice(0, at) + data.slice(at + 1) : data.slice(0, at) + data[at] + data.slice(at);
      }
      const got = read(r, data, i % 2 === 0);
      if (got !== null) {
        fast++;
        if (got.usage !== null) withUsage++;
        assert.deepEqual(got, slowRead(data), data);
      }
      // A new stream of a lane (its layout learnt from earlier variants): read whole, in
      // place, or from the start of its line with its end not known.
      if (i % 3 < 2) {
        const byLane = read(new GeminiTextChunkReader(layouts), data, i % 3 === 0);
        if (byLane !== null) assert.deepEqual(byLane, slowRead(data), data);
      } else {
        // A lane that learnt its layout from this very chunk (when it is one without usage).
        const own: GeminiTextLayouts = { text: null };
        new GeminiTextChunkReader(own).read(data, 0, data.length);
        const text = `data: ${data}\r\n\r\ndata: {}\n\n`;
        const end = new GeminiTextChunkReader(own).lineEnd(text, 6);
        if (end >= 0 && eventEndsAt(text, end, false)) {
          byLine++;
          assert.equal(end, 6 + data.length, data);
          const again = new GeminiTextChunkReader(own);
          assert.equal(again.lineEnd(text, 6), end);
          assert.deepEqual({ text: again.text, usage: again.usage }, slowRead(data), data);
          if (again.literal !== undefined) assert.equal(again.literal, JSON.stringify(again.text), data);
        }
      }
    }
    assert.ok(fast > 2500 && withUsage > 800, `the fast path took ${fast} of the variants, ${withUsage} with usage`);
    assert.ok(byLine > 50, `the lane layout read ${byLine} variants from their line's start`);
  });
});
