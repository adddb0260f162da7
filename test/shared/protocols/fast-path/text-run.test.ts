// Runs of text deltas over bytes (text-run.ts, text-run.wat): the module reads exactly the
// events a byte-by-byte reading takes, and writes each as the template's bytes around its
// literal; the OpenAI decoder's runs stand for the same deltas as its event-by-event reading.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import {
  deltaTemplate,
  measureTextRun,
  runDeltas,
  writeNumberedTextRun,
  writeTextRun,
  MAX_RUN_SEQUENCE,
  RUN_SLOT,
  type TextDeltaTemplate,
} from '../../../../src/shared/protocols/fast-path/text-run.js';
import type { StreamEvent, TextRunEvent } from '../../../../src/shared/model/types.js';
import { CODECS } from '../../../../src/shared/protocols/index.js';
import { MOCK_PROTOCOLS } from '../../../../src/mock/protocols/index.js';
import { mockChunks, mockUsage } from '../../../../src/mock/content.js';
import type { LaneMemo } from '../../../../src/shared/protocols/codec.js';

const HEAD = 'data: {"id":"c1","choices":[{"delta":{"content":';
const TAIL = '}}]}\n\n';

/** What a byte-by-byte reading takes at `at`: the end of each event `HEAD "plain ASCII" TAIL` in a row. */
function reference(text: string, at: number): { end: number; literals: string[] } {
  const literals: string[] = [];
  let p = at;
  for (;;) {
    if (!text.startsWith(HEAD, p) || text[p + HEAD.length] !== '"') break;
    let q = p + HEAD.length + 1;
    while (q < text.length && /[\x20-\x7e]/.test(text[q]!) && text[q] !== '"' && text[q] !== '\\') q++;
    if (text[q] !== '"' || q === p + HEAD.length + 1) break;
    if (!text.startsWith(TAIL, q + 1)) break;
    literals.push(text.slice(p + HEAD.length, q + 1));
    p = q + 1 + TAIL.length;
  }
  return { end: p, literals };
}

const head = Buffer.from(HEAD, 'latin1');
const tail = Buffer.from(TAIL, 'latin1');
const template: TextDeltaTemplate = { before: Buffer.from('event: d\ndata: {"t":'), after: Buffer.from('}\n\n'), ascii: true };

function runOf(bytes: Buffer, at: number, end: number): TextRunEvent {
  return { type: 'text_run', index: 0, bytes: bytes.subarray(at, end), head, tail, slot: 0 };
}

describe('text runs over bytes', () => {
  it('reads what a byte-by-byte reading reads, and writes the template around each literal', () => {
    const plain = fc.stringMatching(/^[ -!#-[\]-~]{1,12}$/);
    const odd = fc.constantFrom('"a\\"b"', '"é"', '"a\tb"', '""', '"x', 'null', '"ok"}}]}\n', '"ok"');
    const event = fc.oneof(
      { weight: 6, arbitrary: plain.map((s) => `${HEAD}"${s}"${TAIL}`) },
      { weight: 1, arbitrary: odd.map((s) => `${HEAD}${s}${TAIL}`) },
      { weight: 1, arbitrary: fc.constantFrom(': keep-alive\n\n', 'data: [DONE]\n\n', `${HEAD.slice(0, 20)}X${HEAD.slice(21)}"a"${TAIL}`) },
    );
    fc.assert(
      fc.property(fc.array(event, { maxLength: 12 }), fc.nat(40), (events, cut) => {
        let text = events.join('');
        text = text.slice(0, Math.max(0, text.length - (cut % 7 === 0 ? cut : 0))); // sometimes cut off mid-event
        const bytes = Buffer.from(text, 'utf8');
        if (bytes.length !== text.length) return; // (the caller only offers chunks whose text has a character per byte)
        const want = reference(text, 0);
        const end = measureTextRun(bytes, 0, head, tail);
        if (want.literals.length < 2) {
          assert.equal(end, -1);
          return;
        }
        assert.equal(end, want.end);
        const run = runOf(bytes, 0, end);
        const out = writeTextRun(run, template);
        assert.equal(out, want.literals.map((l) => `${template.before.toString()}${l}${template.after.toString()}`).join(''));
        assert.deepEqual(
          runDeltas(run).map((d) => (d as { literal: string }).literal),
          want.literals,
        );
      }),
      { numRuns: 500 },
    );
  });

  it('goes on over a chunk longer than its windows, and past a long literal', () => {
    const long = `${HEAD}"${'y'.repeat(9000)}"${TAIL}`;
    const text = `${Array.from({ length: 600 }, (_, i) => `${HEAD}"w${i}"${TAIL}`).join('')}${long}${HEAD}"z"${TAIL}data: [DONE]\n\n`;
    const bytes = Buffer.from(text, 'latin1');
    const want = reference(text, 0);
    assert.equal(want.literals.length, 602);
    assert.equal(measureTextRun(bytes, 0, head, tail), want.end);
    const out = writeTextRun(runOf(bytes, 0, want.end), template);
    assert.equal(
      out.length,
      want.literals.reduce((n, l) => n + l.length + template.before.length + template.after.length, 0),
    );
  });

  it('reads a sequence number of its own in each head, as JSON writes integers', () => {
    const HEAD1 = 'event: d\ndata: {"type":"d","sequence_number":';
    const HEAD2 = ',"item_id":"m1","delta":';
    const TAIL2 = ',"logprobs":[]}\n\n';
    const numbered = { head: Buffer.from(HEAD1 + HEAD2, 'latin1'), tail: Buffer.from(TAIL2, 'latin1'), slot: HEAD1.length };
    const number = fc.oneof({ weight: 6, arbitrary: fc.nat().map(String) }, { weight: 1, arbitrary: fc.constantFrom('', '01', '-1', '1.5', 'x') });
    const plain = fc.stringMatching(/^[ -!#-[\]-~]{1,8}$/);
    fc.assert(
      fc.property(fc.array(fc.tuple(number, plain), { maxLength: 10 }), (events) => {
        const text = events.map(([n, t]) => `${HEAD1}${n}${HEAD2}"${t}"${TAIL2}`).join('') + 'data: [DONE]\n\n';
        const bytes = Buffer.from(text, 'latin1');
        // what a reading event by event takes: integers as JSON writes them
        let good = 0;
        while (good < events.length && /^(0|[1-9][0-9]*)$/.test(events[good]![0])) good++;
        const end = measureTextRun(bytes, 0, numbered.head, numbered.tail, numbered.slot);
        if (good < 2) {
          assert.equal(end, -1);
          return;
        }
        const taken = events.slice(0, good);
        assert.equal(
          end,
          taken.reduce((n, [k, t]) => n + HEAD1.length + k.length + HEAD2.length + t.length + 2 + TAIL2.length, 0),
        );
        const run: TextRunEvent = { type: 'text_run', index: 0, bytes: bytes.subarray(0, end), ...numbered };
        assert.equal(writeTextRun(run, template), taken.map(([, t]) => `${template.before.toString()}"${t}"${template.after.toString()}`).join(''));
        assert.deepEqual(
          runDeltas(run).map((d) => (d as { literal: string }).literal),
          taken.map(([, t]) => `"${t}"`),
        );
      }),
      { numRuns: 300 },
    );
  });

  it("numbers each event it writes when the template says where, and gives the literals' contents", () => {
    const BEFORE = 'event: d\ndata: {"type":"d","sequence_number":';
    const MID = ',"item_id":"m1","delta":';
    const numberedTemplate: TextDeltaTemplate = { ...deltaTemplate(`${BEFORE}${MID}${RUN_SLOT}}\n\n`)!, sequenceAt: BEFORE.length };
    const plain = fc.stringMatching(/^[ -!#-[\]-~]{1,12}$/);
    const start = fc.oneof(fc.nat(1000), fc.constantFrom(9, 99, 999_999_999, 4_294_967_290 - 2 ** 31, MAX_RUN_SEQUENCE - 400));
    fc.assert(
      fc.property(fc.array(plain, { minLength: 2, maxLength: 30 }), start, (texts, first) => {
        const text = texts.map((t) => `${HEAD}"${t}"${TAIL}`).join('');
        const bytes = Buffer.from(text, 'latin1');
        const end = measureTextRun(bytes, 0, head, tail);
        assert.equal(end, bytes.length);
        const run = writeNumberedTextRun(runOf(bytes, 0, end), numberedTemplate, first);
        assert.equal(run.out, texts.map((t, i) => `${BEFORE}${first + i}${MID}"${t}"}\n\n`).join(''));
        assert.equal(run.events, texts.length);
        assert.equal(run.text, texts.join(''));
        // an unnumbered write after it is unnumbered again
        assert.equal(
          writeTextRun(runOf(bytes, 0, end), template),
          texts.map((t) => `${template.before.toString()}"${t}"${template.after.toString()}`).join(''),
        );
      }),
      { numRuns: 300 },
    );
  });

  it("makes a template from the encoder's bytes for a delta whose literal is the slot", () => {
    assert.deepEqual(deltaTemplate(`a${RUN_SLOT}b`), { before: Buffer.from('a'), after: Buffer.from('b'), ascii: true });
    assert.equal(deltaTemplate(`é${RUN_SLOT}`)?.ascii, false);
    assert.equal(deltaTemplate('no slot'), null);
    assert.equal(deltaTemplate(`${RUN_SLOT}${RUN_SLOT}`), null);
  });
});

describe("the OpenAI, Responses and Anthropic decoders' runs", () => {
  // (Responses as the ingress: its runs are numbered, and the final response holds their text.)
  type Lane = 'openai' | 'responses' | 'anthropic';
  type Ingress = 'openai' | 'responses' | 'anthropic' | 'gemini' | 'ollama' | 'bedrock';
  function events(lane: Lane, ingress: Ingress, runs: boolean, memo: LaneMemo, body: Buffer): { out: string; kinds: string[] } {
    const decoder = CODECS[lane].createStreamDecoder(memo);
    const encoder = CODECS[ingress].createStreamEncoder();
    if (runs) decoder.emitTextRuns?.();
    const parts: Buffer[] = [];
    const kinds: string[] = [];
    for (const batch of [decoder.push(body), decoder.finish()]) {
      for (const e of batch as StreamEvent[]) {
        kinds.push(e.type);
        const bytes = encoder.encode(e);
        parts.push(typeof bytes === 'string' ? Buffer.from(bytes) : Buffer.from(bytes));
      }
    }
    // latin1: one character per byte, so a binary framing's bytes (Bedrock's lengths and CRCs) are compared whole.
    return {
      out: Buffer.concat(parts)
        .toString('latin1')
        .replace(/"created_at":"[^"]*"/g, '"created_at":""'),
      kinds,
    };
  }

  const cases: [Lane, Ingress][] = [
    ['openai', 'responses'],
    ['openai', 'anthropic'],
    ['openai', 'gemini'],
    ['openai', 'ollama'],
    ['openai', 'bedrock'],
    ['responses', 'openai'],
    ['responses', 'anthropic'],
    ['responses', 'gemini'],
    ['responses', 'ollama'],
    ['responses', 'bedrock'],
    ['anthropic', 'openai'],
    ['anthropic', 'responses'],
    ['anthropic', 'gemini'],
    ['anthropic', 'ollama'],
    ['anthropic', 'bedrock'],
  ];
  for (const [laneProtocol, ingress] of cases) {
    it(`writes for ${ingress} from a ${laneProtocol} lane the bytes of the deltas one by one`, () => {
      const parts = MOCK_PROTOCOLS[laneProtocol].renderStream({
        model: 'mock-$1-model',
        toolName: null,
        pieces: mockChunks(30),
        usage: mockUsage(12, 0, 30),
        includeUsage: true,
        usageOnLast: false,
      });
      const body = Buffer.concat([parts.head, ...parts.pieces, parts.tail].map((p) => Buffer.from(p)));
      const memo = (): LaneMemo => ({ usageEvent: null, eventShapes: null, responsesDeltas: null, chatDeltas: null, geminiText: null });
      const lane = memo();
      events(laneProtocol, ingress, true, lane, body); // the lane learns its layout
      const withRuns = events(laneProtocol, ingress, true, lane, body);
      const without = events(laneProtocol, ingress, false, memo(), body);
      assert.ok(withRuns.kinds.includes('text_run'), withRuns.kinds.join(' '));
      assert.equal(withRuns.out, without.out);
    });
  }
});

describe("the Responses decoder's done events after a run", () => {
  /** The error the decoder ends with, or '' (its events as it gives them otherwise). */
  function ending(body: Buffer, runs: boolean): string {
    const memo: LaneMemo = { usageEvent: null, eventShapes: null, responsesDeltas: null, chatDeltas: null, geminiText: null };
    const decoder = CODECS.responses.createStreamDecoder(memo);
    if (runs) decoder.emitTextRuns?.();
    const kinds: string[] = [];
    try {
      for (const batch of [decoder.push(body), decoder.finish()]) for (const e of batch as StreamEvent[]) kinds.push(e.type);
    } catch (err) {
      return `${kinds.join(' ')} | ${(err as Error).message}`;
    }
    return kinds.join(' ');
  }

  it('reads a done text that is not plain JSON content as the full decoder does', () => {
    const parts = MOCK_PROTOCOLS.responses.renderStream({
      model: 'm',
      toolName: null,
      pieces: mockChunks(10),
      usage: mockUsage(12, 0, 10),
      includeUsage: true,
      usageOnLast: false,
    });
    const whole = [parts.head, ...parts.pieces, parts.tail].map((p) => Buffer.from(p).toString('latin1')).join('');
    // a raw control character in output_text.done's text: not JSON
    const bad = whole.replace(/("type":"response\.output_text\.done".*?"text":")The/, '$1\u0001The');
    assert.notEqual(bad, whole);
    for (const text of [whole, bad]) {
      const body = Buffer.from(text, 'latin1');
      const withRuns = ending(body, true);
      const texts = (kinds: string): string => kinds.replace(/(?:text_(?:delta|run) )+/g, 'text ');
      assert.equal(texts(withRuns), texts(ending(body, false)));
      if (text === bad)
        assert.match(withRuns, /not JSON/); // (push throws: no events to show)
      else assert.ok(withRuns.includes('text_run'), withRuns);
    }
  });
});
