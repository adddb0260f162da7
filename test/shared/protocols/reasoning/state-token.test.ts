// The token that carries one family's reasoning state through a caller of another protocol:
// canonical base64 known by its prefix, read back exactly, and anything else (a vendor's own
// state, a changed token) read as not one of ours.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import type { ReasoningPart } from '../../../../src/shared/model/types.js';
import { decodeStateToken, encodeStateToken, isStateToken, TOKEN_PREFIX } from '../../../../src/shared/protocols/reasoning/state-token.js';
import { idWithReasoning, plainCallId, reasoningOfCallId, reasoningOfCalls } from '../../../../src/shared/protocols/reasoning/call-id.js';
import { holdsGatewayState } from '../../../../src/shared/protocols/reasoning/passthrough-guard.js';

const PARTS: ReasoningPart[] = [
  { type: 'reasoning', text: 'Think "hard" ☀️\n\ud83d', family: 'anthropic', signature: 'EqQBCkgIARAB+/==' },
  { type: 'reasoning', text: '', family: 'anthropic', redacted: 'RUVFRQ==' },
  { type: 'reasoning', text: 'sum', family: 'responses', itemId: 'rs_1', signature: 'gAAAAA==' },
  { type: 'reasoning', text: '', family: 'gemini', signature: 'CiQB' },
];

describe('reasoning state tokens', () => {
  it('are canonical base64 that start with the prefix, and read back exactly, texts and all', () => {
    const token = encodeStateToken(PARTS, true);
    assert.ok(token.startsWith(TOKEN_PREFIX));
    assert.equal(Buffer.from(token, 'base64').toString('base64'), token, 'survives a decode and re-encode as bytes (Gemini and Bedrock SDKs)');
    assert.deepEqual(decodeStateToken(token), PARTS);
  });

  it("without texts take the carrier's own text", () => {
    const token = encodeStateToken([PARTS[0]!], false);
    assert.deepEqual(decodeStateToken(token, 'the text'), [{ ...PARTS[0]!, text: 'the text' }]);
  });

  it("tell a vendor's own state and a changed token from theirs", () => {
    for (const native of ['EqQBCkgIARABGAIiQL2UoU0b1OHY', 'gAAAAABo', 'CiQBcsjafPw2', '']) {
      assert.equal(isStateToken(native), false);
      assert.equal(decodeStateToken(native), null);
    }
    const token = encodeStateToken(PARTS, true);
    assert.equal(decodeStateToken(`${token.slice(0, -8)}AAAAAAAA`), null, 'a changed tail');
    assert.equal(
      decodeStateToken(Buffer.concat([Buffer.from(TOKEN_PREFIX, 'base64'), Buffer.from('[["nope",null,null,null,null]]')]).toString('base64')),
      null,
      'an unknown family',
    );
    assert.equal(decodeStateToken(Buffer.concat([Buffer.from(TOKEN_PREFIX, 'base64'), Buffer.from('{}')]).toString('base64')), null, 'not a list');
  });
});

describe('tool-call ids as carriers', () => {
  it("carry the parts after the lane's id, and give both back", () => {
    const id = idWithReasoning('toolu_01', PARTS);
    assert.ok(id.startsWith('toolu_01~'));
    assert.equal(plainCallId(id), 'toolu_01');
    assert.deepEqual(reasoningOfCallId(id), PARTS);
    assert.equal(idWithReasoning('call_1', []), 'call_1');
    assert.equal(plainCallId('call_1'), 'call_1');
    assert.deepEqual(reasoningOfCallId('call_1~other'), []);
  });

  it("put the first call's reasoning at the turn's start, but for the signatures it ends with", () => {
    const calls = [{ id: idWithReasoning('a', PARTS) }, { id: idWithReasoning('b', [PARTS[2]!]) }, { id: 'c' }];
    assert.deepEqual(reasoningOfCalls(calls), { leading: PARTS.slice(0, 3), beforeCall: [[PARTS[3]!], [PARTS[2]!], []] });
    assert.equal(reasoningOfCalls([{ id: 'a' }, { id: 'b' }]), null);
    assert.equal(reasoningOfCalls(undefined), null);
  });
});

describe('the passthrough guard', () => {
  it('finds a token anywhere in a body, and nothing in a body without one', () => {
    assert.equal(holdsGatewayState(JSON.stringify({ messages: [{ tool_calls: [{ id: idWithReasoning('call_1', PARTS) }] }] })), true);
    assert.equal(holdsGatewayState(JSON.stringify({ messages: [{ role: 'user', content: 'hi', signature: 'EqQB' }] })), false);
  });
});
