import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  rewriteTopLevelString, setTopLevelField, expectObject, optionalNumber, optionalInteger,
  optionalString, tokenCount,
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
    assert.throws(() => rewriteTopLevelString('[1]', 'model', 'm'), (e: unknown) => e instanceof GatewayError && e.kind === 'invalid_request');
    for (const bad of ['{"model":"x"', '{"model" "x"}', '{"a":1 "b":2}', '{"a":"unterminated}', '{"a":}']) {
      assert.throws(() => rewriteTopLevelString(bad, 'model', 'm'), (e: unknown) => e instanceof GatewayError, bad);
    }
  });
});

describe('setTopLevelField', () => {
  it('replaces an object value in place', () => {
    const raw = '{"stream":true,"stream_options":{"include_usage":false},"model":"m"}';
    assert.equal(setTopLevelField(raw, 'stream_options', '{"include_usage":true}'),
      '{"stream":true,"stream_options":{"include_usage":true},"model":"m"}');
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
