import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  rewriteTopLevelString,
  setTopLevelField,
  expectObject,
  optionalNumber,
  optionalInteger,
  optionalString,
  tokenCount,
  topLevelValueText,
} from '../../../../src/shared/protocols/framing/json-field.js';
import { GatewayError } from '../../../../src/shared/errors.js';

describe('rewriteTopLevelString', () => {
  it('rewrites only the top-level value and keeps every other byte', () => {
    const raw = '{ "messages": [{"model": "inner", "content": "say \\"model\\": \\"x\\""}],\n  "model" :  "gpt-x" , "n": 1.50e0, "zz": {"model":"deep"} }';
    const out = rewriteTopLevelString(raw, 'model', 'up-1');
    assert.equal(out, raw.replace('"gpt-x"', '"up-1"'));
    assert.equal(JSON.parse(out).model, 'up-1');
    assert.equal(JSON.parse(out).zz.model, 'deep');
  });

  it('returns the same string when the value already matches', () => {
    const raw = '{"model":"same","x":[1,2]}';
    assert.equal(rewriteTopLevelString(raw, 'model', 'same'), raw);
    const escaped = '{"model":"a\\u0062c"}';
    assert.equal(rewriteTopLevelString(escaped, 'model', 'abc'), escaped);
  });

  it('escapes the new value', () => {
    const out = rewriteTopLevelString('{"model":"a"}', 'model', 'we"ird\\');
    assert.equal(JSON.parse(out).model, 'we"ird\\');
  });

  it('rewrites every duplicate key so no parser sees the caller value', () => {
    const out = rewriteTopLevelString('{"model":"a","x":1,"model":"b"}', 'model', 'c');
    assert.equal(out, '{"model":"c","x":1,"model":"c"}');
  });

  it('matches an escaped key spelling', () => {
    assert.equal(rewriteTopLevelString('{"mod\\u0065l":"a"}', 'model', 'b'), '{"mod\\u0065l":"b"}');
  });

  it('inserts the field when absent', () => {
    assert.equal(rewriteTopLevelString('{}', 'model', 'm'), '{"model":"m"}');
    assert.equal(rewriteTopLevelString(' { "a" : 1 }', 'model', 'm'), ' {"model":"m", "a" : 1 }');
  });

  it('replaces a non-string value', () => {
    assert.equal(rewriteTopLevelString('{"model":null,"a":[{"b":"}"}]}', 'model', 'm'), '{"model":"m","a":[{"b":"}"}]}');
  });

  it('copes with deep nesting without recursion', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const raw = `{"a":${deep},"model":"x"}`;
    assert.equal(JSON.parse(rewriteTopLevelString(raw, 'model', 'y')).model, 'y');
  });

  it('rejects a body that is not an object, and malformed text', () => {
    assert.throws(
      () => rewriteTopLevelString('[1]', 'model', 'm'),
      (e: unknown) => e instanceof GatewayError && e.kind === 'invalid_request',
    );
    for (const bad of ['{"model":"x"', '{"model" "x"}', '{"a":1 "b":2}', '{"a":"unterminated}', '{"a":}']) {
      assert.throws(
        () => rewriteTopLevelString(bad, 'model', 'm'),
        (e: unknown) => e instanceof GatewayError,
        bad,
      );
    }
  });
});

describe('rewriteTopLevelString and setTopLevelField given the parsed body (the short way)', () => {
  it('give what the scan gives on the examples above', () => {
    const raws = [
      '{ "messages": [{"model": "inner", "content": "say \\"model\\": \\"x\\""}],\n  "model" :  "gpt-x" , "n": 1.50e0, "zz": {"model":"deep"} }',
      '{"model":"same","x":[1,2]}',
      '{"model":"a\\u0062c"}',
      '{"model":"a"}',
      '{"model":"a","x":1,"model":"b"}',
      '{"mod\\u0065l":"a"}',
      '{}',
      ' { "a" : 1 }',
      '{"model":null,"a":[{"b":"}"}]}',
      '{"messages":[{"role":"model"}],"model":"m"}',
      '{"a":{"model":"nested"}}',
      '{"a":"C:\\\\users","model":"x"}',
      '\n{"stream_options":{"x":1},"model":"m"}',
    ];
    for (const raw of raws) {
      const parsed: unknown = JSON.parse(raw);
      for (const value of ['same', 'up-1', 'we"ird\\'])
        assert.equal(rewriteTopLevelString(raw, 'model', value, parsed), rewriteTopLevelString(raw, 'model', value), raw);
      assert.equal(
        setTopLevelField(raw, 'stream_options', '{"include_usage":true}', parsed),
        setTopLevelField(raw, 'stream_options', '{"include_usage":true}'),
        raw,
      );
    }
  });

  it('agree with the scan on any object, duplicate and escaped keys included (property)', () => {
    const keys = fc.constantFrom('"model"', '"mod\\u0065l"', '"stream_options"', '"a"', '"models"', '"x\\"model"');
    const value = fc.letrec((tie) => ({
      leaf: fc.oneof(fc.integer(), fc.constant(null), fc.string({ maxLength: 8 }), fc.constantFrom('model', 'stream_options', 'C:\\users', '"model":1')),
      node: fc.oneof(
        { depthSize: 'small' },
        tie('leaf'),
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom('model', 'stream_options', 'b'), tie('node'), { maxKeys: 3 }),
      ),
    })).node;
    const space = fc.constantFrom('', ' ', '\n  ');
    fc.assert(
      fc.property(fc.array(fc.tuple(keys, value, space), { maxLength: 5 }), space, (members, lead) => {
        const raw = `${lead}{${members.map(([k, v, sp]) => `${sp}${k}${sp}:${sp}${JSON.stringify(v)}`).join(',')}}`;
        const parsed: unknown = JSON.parse(raw);
        assert.equal(rewriteTopLevelString(raw, 'model', 'up', parsed), rewriteTopLevelString(raw, 'model', 'up'));
        assert.equal(
          setTopLevelField(raw, 'stream_options', '{"include_usage":true}', parsed),
          setTopLevelField(raw, 'stream_options', '{"include_usage":true}'),
        );
      }),
      { numRuns: 3000 },
    );
  });
});

describe('setTopLevelField', () => {
  it('replaces an object value in place', () => {
    const raw = '{"stream":true,"stream_options":{"include_usage":false},"model":"m"}';
    assert.equal(setTopLevelField(raw, 'stream_options', '{"include_usage":true}'), '{"stream":true,"stream_options":{"include_usage":true},"model":"m"}');
  });
});

describe('parsed field readers', () => {
  it('name the field in the error', () => {
    assert.throws(() => expectObject([], 'body'), /body must be an object/);
    assert.throws(() => optionalNumber({ t: 3 }, 't', 'body', 0, 2), /body\.t must be between 0 and 2, got 3/);
    assert.throws(() => optionalInteger({ m: -1 }, 'm', 'body', 1), /body\.m must be at least 1, got -1/);
    assert.throws(() => optionalInteger({ m: 1.5 }, 'm', 'body', 1), /must be an integer/);
    assert.throws(() => optionalString({ s: 1 }, 's', 'body'), /body\.s must be a string/);
  });

  it('treat null as absent', () => {
    assert.equal(optionalNumber({ t: null }, 't', 'b', 0, 1), undefined);
    assert.equal(optionalString({}, 's', 'b'), undefined);
  });

  it('tokenCount never throws on odd upstream values', () => {
    assert.equal(tokenCount(undefined), 0);
    assert.equal(tokenCount(-3), 0);
    assert.equal(tokenCount('7'), 0);
    assert.equal(tokenCount(7), 7);
  });
});

describe('topLevelValueText', () => {
  const usageOf = (text: string): unknown => {
    const value = topLevelValueText(text, 'usage');
    return value === undefined ? undefined : JSON.parse(value);
  };

  it('reads the top-level field wherever it sits, and only that one', () => {
    assert.deepEqual(usageOf('{"a":1,"usage":{"n":2}}'), { n: 2 });
    assert.deepEqual(usageOf('{"usage":{"n":2},"tier":"x","fp":null}'), { n: 2 });
    assert.deepEqual(usageOf(' { "usage" : 3 , "b" : [1,{"usage":4}] } '), 3);
    assert.equal(usageOf('{"a":{"usage":1}}'), undefined);
    assert.equal(usageOf('{"a":{"usage":1},"b":2}'), undefined);
    assert.equal(usageOf('{"x":[{"usage":1}]}'), undefined);
  });

  it('is not fooled by the key inside a string or a longer key', () => {
    assert.equal(usageOf('{"text":"say \\"usage\\":{} please"}'), undefined);
    assert.deepEqual(usageOf('{"usage":1,"text":"\\"usage\\":2}"}'), 1);
    assert.deepEqual(usageOf('{"usage":1,"x\\"usage":2}'), 1);
  });

  it('keeps the last duplicate, however it is spelled', () => {
    assert.equal(usageOf('{"usage":1,"usage":2}'), 2);
    assert.equal(usageOf('{"usage":1,"usage" :2}'), 2);
    assert.equal(usageOf('{"usage":1,"us\\u0061ge":2}'), 2);
  });

  it('agrees with JSON.parse on any object, compact or spaced (property)', () => {
    const member = fc.oneof(fc.constant('usage'), fc.constantFrom('a', 'text', 'us', 'usage\\"'), fc.string({ maxLength: 6 }));
    const value = fc.letrec((tie) => ({
      leaf: fc.oneof(fc.integer(), fc.constant(null), fc.boolean(), fc.string({ maxLength: 12 }), fc.constantFrom('"usage":{}', '\\"usage\\":1')),
      node: fc.oneof({ depthSize: 'small' }, tie('leaf'), fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(member, tie('node'), { maxKeys: 4 })),
    })).node;
    fc.assert(
      fc.property(fc.dictionary(member, value, { maxKeys: 5 }), fc.boolean(), (obj, spaced) => {
        const text = spaced ? JSON.stringify(obj, null, 1) : JSON.stringify(obj);
        assert.deepEqual(usageOf(text), (JSON.parse(text) as Record<string, unknown>).usage);
      }),
      { numRuns: 2000 },
    );
  });
});
