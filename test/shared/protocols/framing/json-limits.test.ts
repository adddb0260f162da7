import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import {
  JSON_TOO_DEEP,
  JSON_TOO_MANY_MEMBERS,
  JSON_WITHIN_LIMITS,
  checkJsonLimits,
  jsonLimitMessage,
  type JsonLimits,
} from '../../../../src/shared/protocols/framing/json-limits.js';
import { jsonLimitsAgreeWithParse, measureOfValue } from '../../../../bench/fuzz/json-limits-properties.js';

const limits = (maxJsonDepth: number, maxJsonMembers: number): JsonLimits => ({ maxJsonDepth, maxJsonMembers });
const check = (text: string, l: JsonLimits) => checkJsonLimits(Buffer.from(text), l);

describe('checkJsonLimits', () => {
  it('counts depth from the body itself (depth 1) and refuses one level past the limit', () => {
    assert.equal(check('{}', limits(1, 10)), JSON_WITHIN_LIMITS);
    assert.equal(check('{"a":[]}', limits(1, 10)), JSON_TOO_DEEP);
    assert.equal(check('{"a":[]}', limits(2, 10)), JSON_WITHIN_LIMITS);
    assert.equal(check('[[[1]]]', limits(3, 10)), JSON_WITHIN_LIMITS);
    assert.equal(check('[[[1]]]', limits(2, 10)), JSON_TOO_DEEP);
    assert.equal(check('"just a string"', limits(1, 0)), JSON_WITHIN_LIMITS);
  });

  it('counts object members and array elements over the whole body', () => {
    assert.equal(check('{"a":1,"b":[1,2,3]}', limits(8, 5)), JSON_WITHIN_LIMITS);
    assert.equal(check('{"a":1,"b":[1,2,3]}', limits(8, 4)), JSON_TOO_MANY_MEMBERS);
    assert.equal(check('[[],{},[[]]]', limits(8, 4)), JSON_WITHIN_LIMITS, 'an empty container has no member; three elements and one nested');
    assert.equal(check('[[],{},[[]]]', limits(8, 3)), JSON_TOO_MANY_MEMBERS);
    assert.equal(check(' [ true , false , null , -1.5e3 ] ', limits(8, 4)), JSON_WITHIN_LIMITS);
    assert.equal(check(' [ true , false , null , -1.5e3 ] ', limits(8, 3)), JSON_TOO_MANY_MEMBERS);
  });

  it('does not count brackets, braces, commas or quotes inside strings', () => {
    const tricky = JSON.stringify({ k: '[[[[{{{{,,,,', 'q"[': 'a\\"b\\\\', e: '\\', u: '\u0000"}' });
    assert.equal(check(tricky, limits(1, 4)), JSON_WITHIN_LIMITS);
    assert.equal(check(tricky, limits(1, 3)), JSON_TOO_MANY_MEMBERS);
  });

  it('agrees with a walk of what JSON.parse made, on any JSON value', () => {
    fc.assert(jsonLimitsAgreeWithParse(), { seed: 46, numRuns: 400 });
  });

  it('measureOfValue: the reference the property compares with', () => {
    assert.deepEqual(measureOfValue(JSON.parse('{"a":[1,{"b":2}],"c":"x"}')), { depth: 3, members: 5 });
    assert.deepEqual(measureOfValue(7), { depth: 0, members: 0 });
  });

  it('refuses a 9.8 MB [[[[...]]]] body after reading about maxJsonDepth bytes', () => {
    const half = 4_900_000;
    const body = Buffer.alloc(2 * half);
    body.fill(0x5b, 0, half);
    body.fill(0x5d, half);
    const started = process.hrtime.bigint();
    const verdict = checkJsonLimits(body, limits(64, 100_000));
    const tookNs = Number(process.hrtime.bigint() - started);
    assert.equal(verdict, JSON_TOO_DEEP);
    // Not a timing assertion on a loaded machine: a bound a thousand times what it takes, so a
    // scan of the whole body (milliseconds) or JSON.parse (seconds) cannot pass.
    assert.ok(tookNs < 50_000_000, `took ${tookNs} ns`);
  });

  it('names the limit and its setting in the refusal', () => {
    const l = limits(64, 100_000);
    assert.match(jsonLimitMessage(JSON_TOO_DEEP, l), /deeper than 64 levels \(advanced\.max_json_depth\)/);
    assert.match(jsonLimitMessage(JSON_TOO_MANY_MEMBERS, l), /more than 100000 .* \(advanced\.max_json_members\)/);
  });
});
