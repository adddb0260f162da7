import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import {
  TOP_LEVEL_NOT_JSON,
  TOP_LEVEL_NOT_OBJECT,
  TOP_LEVEL_OVER_LIMIT,
  TOP_LEVEL_UNDECIDED,
  bodyHeldMarker,
  readTopLevelMembers,
} from '../../../../src/shared/protocols/framing/top-level-members.js';
import { JSON_WITHIN_LIMITS, checkJsonLimits, type JsonLimits } from '../../../../src/shared/protocols/framing/json-limits.js';

const KEYS = ['model', 'stream', 'stream_options'] as const;

/** What JSON.parse makes of the bytes, in readTopLevelMembers' terms. */
function byJsonParse(bytes: Buffer, keys: readonly string[]): Record<string, unknown> | number {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    return TOP_LEVEL_NOT_JSON;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return TOP_LEVEL_NOT_OBJECT;
  const members: Record<string, unknown> = {};
  for (const key of keys) if (Object.hasOwn(value, key)) members[key] = (value as Record<string, unknown>)[key];
  return members;
}

/** The reader agrees with JSON.parse, or leaves the body to it (only for a key with an escape, in these tests). */
function agrees(bytes: Buffer, keys: readonly string[] = KEYS): void {
  const read = readTopLevelMembers(bytes, keys);
  if (read === TOP_LEVEL_UNDECIDED) {
    assert.ok(bytes.includes(0x5c), `undecided without an escape: ${bytes.toString('latin1')}`);
    return;
  }
  assert.deepEqual(read, byJsonParse(bytes, keys), `bytes: ${JSON.stringify(bytes.toString('latin1'))}`);
}

/** JSON text of `value` with whitespace of every allowed kind between tokens. */
const spaced = (value: unknown, space: string): string => JSON.stringify(value, null, space).replace(/\n/g, '\r\n');

describe('readTopLevelMembers', () => {
  it('agrees with JSON.parse on any JSON value, compact or spaced', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom('', ' ', '\t', '  '), (value, space) => {
        agrees(Buffer.from(JSON.stringify(value)));
        agrees(Buffer.from(spaced(value, space)));
      }),
      { numRuns: 2000, seed: 14 },
    );
  });

  it('agrees with JSON.parse on request-like objects, the asked members anywhere and repeated', () => {
    const member = fc.tuple(
      fc.constantFrom('model', 'stream', 'stream_options', 'messages', 'mod\\u0065l', 'stre\\u0061m', 'x'),
      fc.jsonValue({ maxDepth: 3 }),
    );
    fc.assert(
      fc.property(fc.array(member, { maxLength: 8 }), (members) => {
        const text = `{${members.map(([k, v]) => `"${k}":${JSON.stringify(v)}`).join(',')}}`;
        agrees(Buffer.from(text));
      }),
      { numRuns: 2000, seed: 14 },
    );
  });

  it('agrees with JSON.parse on broken JSON: bytes cut, dropped, changed or inserted', () => {
    const body = Buffer.from(
      JSON.stringify({
        model: 'm',
        messages: [{ role: 'user', content: 'h\u00e9llo "q" \\ \u2028' }],
        stream: true,
        stream_options: { include_usage: true },
        n: -1.5e-3,
        z: [null, false, {}],
      }),
    );
    const special = fc.constantFrom(
      ...'{}[]":,\\ \t\r\n0123456789-+.eEtrufalsn\u0000\u001f\u007f'.split('').map((c) => c.charCodeAt(0)),
      0x80,
      0xc3,
      0xe2,
      0xef,
      0xbb,
      0xbf,
      0xff,
    );
    fc.assert(
      fc.property(fc.nat(body.length), fc.constantFrom('cut', 'drop', 'change', 'insert'), special, (at, how, byte) => {
        let bytes: Buffer;
        if (how === 'cut') bytes = body.subarray(0, at);
        else if (how === 'drop') bytes = Buffer.concat([body.subarray(0, at), body.subarray(at + 1)]);
        else if (how === 'change') {
          bytes = Buffer.from(body);
          if (at < bytes.length) bytes[at] = byte;
        } else bytes = Buffer.concat([body.subarray(0, at), Buffer.from([byte]), body.subarray(at)]);
        agrees(bytes);
      }),
      { numRuns: 5000, seed: 14 },
    );
  });

  it('agrees with JSON.parse on arbitrary short texts and bytes', () => {
    const alphabet = fc.constantFrom(...'{}[]":,\\ 0123456789-.eEtrufalsnu'.split(''));
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 24 }), (chars) => agrees(Buffer.from(chars.join('')))),
      { numRuns: 5000, seed: 14 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 16 }), (bytes) => agrees(Buffer.from(bytes))),
      { numRuns: 2000, seed: 14 },
    );
  });

  it('decides the edge cases as JSON.parse does', () => {
    const cases = [
      '',
      ' ',
      '{',
      '}',
      '{}',
      ' {} ',
      '{} x',
      '[]',
      '"s"',
      '1',
      'null',
      'true',
      '{"model":}',
      '{"model" "x"}',
      '{"model":"a",}',
      '{,}',
      '{"a":1 "b":2}',
      '{"a":[1,]}',
      '{"a":01}',
      '{"a":1.}',
      '{"a":.5}',
      '{"a":-}',
      '{"a":1e}',
      '{"a":1e+}',
      '{"a":+1}',
      '{"a":-0.0e-0}',
      '{"a":1E400}',
      '{"a":tru}',
      '{"a":nul}',
      '{"a":falsey}',
      '{"a":"\\x"}',
      '{"a":"\\u12"}',
      '{"a":"\\u12g4"}',
      '{"a":"\\ud800"}',
      '{"model":"a\\"b"}',
      '{"mod\\u0065l":"esc"}',
      '{"model":"first","model":"last"}',
      '{"stream_options":{"include_usage":true}}',
      '{"stream":true}',
      '{"stream":"true"}',
      '{"model":1}',
      '{"a":{"b":{"c":[[[]]]}}}',
      '{"a":"\u0000"}',
      '\ufeff{}',
      '{"a":1}\u00a0',
      '{"__proto__":{"model":"x"},"model":"y"}',
      '{"a":[{"b":1},{"c":[2,{"d":"}"}]}]}',
      '{"a":"]"}',
      '{\n\t"model"\r:\n"x"\n}',
    ];
    for (const text of cases) agrees(Buffer.from(text));
    // Invalid UTF-8: kept (as U+FFFD) inside a string, an error outside one.
    agrees(Buffer.from([0x7b, 0x22, 0x6d, 0x6f, 0x64, 0x65, 0x6c, 0x22, 0x3a, 0x22, 0xff, 0xe2, 0x28, 0x22, 0x7d]));
    agrees(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x31, 0xff, 0x7d]));
    agrees(Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]));
  });

  it('reads a model with an escape or outside ASCII as JSON.parse does', () => {
    const read = readTopLevelMembers(Buffer.from('{"model":"caf\u00e9 \\"x\\" \\u00e9","stream":false}'), KEYS);
    assert.deepEqual(read, { model: 'café "x" é', stream: false });
  });

  it('leaves nesting deeper than it tracks, and escaped top-level keys, to JSON.parse; any number of members', () => {
    const deep = `{"a":${'['.repeat(1100)}${']'.repeat(1100)}}`;
    assert.equal(readTopLevelMembers(Buffer.from(deep), KEYS), TOP_LEVEL_UNDECIDED);
    const shallow = `{"a":${'[{"b":'.repeat(500)}1${'}]'.repeat(500)},"model":"m"}`;
    assert.deepEqual(readTopLevelMembers(Buffer.from(shallow), KEYS), { model: 'm' });
    const members = `{${Array.from({ length: 1000 }, (_, i) => `"k${i}":${i}`).join(',')},"model":"m","stream":true}`;
    assert.deepEqual(readTopLevelMembers(Buffer.from(members), KEYS), { model: 'm', stream: true });
    // A top-level key with an escape might spell one asked for: JSON.parse decides.
    assert.equal(readTopLevelMembers(Buffer.from('{"mod\\u0065l":"x"}'), KEYS), TOP_LEVEL_UNDECIDED);
    assert.deepEqual(readTopLevelMembers(Buffer.from('{"a":{"mod\\u0065l":"x"},"model":"m"}'), KEYS), { model: 'm' });
  });

  it('reads a body larger than its scratch memory, and a small one after it', () => {
    const big = JSON.stringify({ messages: [{ role: 'user', content: 'x\u00e9"'.repeat(40_000) }], model: 'big', stream: true });
    agrees(Buffer.from(big));
    agrees(Buffer.from(big.slice(0, -2)));
    agrees(Buffer.from('{"model":"small"}'));
  });

  it('refuses to be asked for a key it cannot compare as bytes', () => {
    assert.throws(() => readTopLevelMembers(Buffer.from('{}'), ['a"b']), RangeError);
    assert.throws(() => readTopLevelMembers(Buffer.from('{}'), ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i']), RangeError);
    // A refused list leaves the keys asked for before as they were.
    const keys = ['model', 'stream'];
    assert.deepEqual(readTopLevelMembers(Buffer.from('{"model":"m","stream":true}'), keys), { model: 'm', stream: true });
    assert.throws(() => readTopLevelMembers(Buffer.from('{}'), ['model', 'a\\b']), RangeError);
    assert.deepEqual(readTopLevelMembers(Buffer.from('{"model":"m","stream":true}'), keys), { model: 'm', stream: true });
  });

  it('makes no member it was not asked for', () => {
    assert.deepEqual(readTopLevelMembers(Buffer.from('{"model":"m","messages":[1]}'), []), {});
    assert.deepEqual(readTopLevelMembers(Buffer.from('{"model":"m","messages":[1]}'), ['model']), { model: 'm' });
  });
});

describe('readTopLevelMembers: the JSON limits and the marker in the same pass', () => {
  const MARKER = 'gwReason';

  /** The reader's limit verdict agrees with checkJsonLimits' on JSON, and its marker with indexOf. */
  function agreesWithScan(bytes: Buffer, limits: JsonLimits): void {
    const read = readTopLevelMembers(bytes, KEYS, null, limits, MARKER);
    const scanned = checkJsonLimits(bytes, limits);
    const label = `bytes: ${JSON.stringify(bytes.toString('latin1'))}, limits ${limits.maxJsonDepth}/${limits.maxJsonMembers}`;
    if (scanned !== JSON_WITHIN_LIMITS) {
      // Past a limit: never taken whole; the reader says so, unless it found the bytes invalid or undecided first.
      assert.notEqual(typeof read, 'object', label);
      return;
    }
    assert.notEqual(read, TOP_LEVEL_OVER_LIMIT, label);
    if (typeof read === 'object') assert.equal(bodyHeldMarker(), bytes.includes(MARKER), label);
  }

  it('agrees with checkJsonLimits and indexOf on generated JSON, at limits around its own counts', () => {
    const withMarker = fc.oneof(fc.string(), fc.constantFrom(MARKER, `x${MARKER}y`, `${'a'.repeat(15)}${MARKER}`, 'gw', `g${'w'.repeat(20)}`));
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        withMarker,
        fc.integer(),
        fc.boolean(),
        fc.array(tie('node'), { maxLength: 4 }),
        fc.dictionary(withMarker, tie('node'), { maxKeys: 4 }),
      ),
    })).node;
    fc.assert(
      fc.property(
        fc.dictionary(withMarker, value, { maxKeys: 5 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 0, max: 40 }),
        (object, depth, members) => {
          const bytes = Buffer.from(JSON.stringify(object));
          agreesWithScan(bytes, { maxJsonDepth: depth, maxJsonMembers: members });
          agreesWithScan(bytes, { maxJsonDepth: 64, maxJsonMembers: 100_000 });
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('stops at the first byte past the depth limit of a nested body', () => {
    const nested = Buffer.from(`{"a":${'['.repeat(100_000)}`);
    assert.equal(readTopLevelMembers(nested, KEYS, null, { maxJsonDepth: 64, maxJsonMembers: 100_000 }), TOP_LEVEL_OVER_LIMIT);
    assert.equal(readTopLevelMembers(Buffer.from('{"a":[[]]}'), KEYS, null, { maxJsonDepth: 2, maxJsonMembers: 10 }), TOP_LEVEL_OVER_LIMIT);
    assert.deepEqual(readTopLevelMembers(Buffer.from('{"a":[[]]}'), KEYS, null, { maxJsonDepth: 3, maxJsonMembers: 10 }), {});
    assert.equal(readTopLevelMembers(Buffer.from('{"a":1,"b":[1,2]}'), KEYS, null, { maxJsonDepth: 3, maxJsonMembers: 3 }), TOP_LEVEL_OVER_LIMIT);
    assert.deepEqual(readTopLevelMembers(Buffer.from('{"a":1,"b":[1,2]}'), KEYS, null, { maxJsonDepth: 3, maxJsonMembers: 4 }), {});
  });

  it('sees the marker in a key, at a 16-byte block edge and in the last bytes', () => {
    for (let pad = 0; pad < 40; pad++) {
      for (const where of ['key', 'value'] as const) {
        const text = `${'p'.repeat(pad)}${MARKER}`;
        const body = Buffer.from(where === 'key' ? `{"${text}":1}` : `{"model":"m","x":"${text}"}`);
        assert.equal(typeof readTopLevelMembers(body, KEYS, null, undefined, MARKER), 'object');
        assert.equal(bodyHeldMarker(), true, body.toString());
        readTopLevelMembers(Buffer.from(`{"x":"${'p'.repeat(pad)}gwReaso"}`), KEYS, null, undefined, MARKER);
        assert.equal(bodyHeldMarker(), false);
      }
    }
  });
});
