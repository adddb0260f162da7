// A failure after the first byte cannot fail over: the stream ends with the ingress
// protocol's own error event (PROTOCOLS.md), passthrough and translated alike.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ProtocolName } from '../../../src/shared/model/types.js';
import { minimalRequest, rawPost } from '../../helpers/clients/raw.js';
import { poolPerProtocol, suiteStack } from '../../helpers/clients/stack.js';

// What each protocol's mid-stream error event looks like on the wire.
const ERROR_EVENT: Record<ProtocolName, RegExp> = {
  openai: /data: \{"error":/,
  responses: /event: error\ndata: \{"type":"error"/,
  anthropic: /event: error\ndata: \{"type":"error"/,
  gemini: /data: \{"error":/,
  bedrock: /:message-type\x07\x00\texception/,
  ollama: /\{"error":/,
};

const PROMPT = 'break it [mock chunks=20 tokens_per_sec=400 fault=reset_during]';

describe('a failure after the first byte ends the stream with the protocol error event', () => {
  // Every case breaks a stream on purpose, several on the same lane: a breaker that trips only
  // after many failures keeps the cases independent (three in a row would trip the default).
  const stack = suiteStack({ workers: 1, over: { pools: poolPerProtocol({ breaker: { consecutive_n: 1000 } }) } });

  const cases: Array<[ProtocolName, ProtocolName]> = [
    ['openai', 'openai'],
    ['anthropic', 'anthropic'],
    ['openai', 'anthropic'],
    ['anthropic', 'openai'],
    ['responses', 'gemini'],
    ['gemini', 'openai'],
    ['bedrock', 'openai'],
    ['ollama', 'bedrock'],
  ];
  for (const [ingress, lane] of cases) {
    it(`${ingress} caller, ${lane} lane`, async () => {
      const req = minimalRequest(ingress, `pool-${lane}`, PROMPT, true);
      const answer = await rawPost(`${stack.gateway.url}${req.path}`, req.body);
      assert.equal(answer.status, 200, 'the stream had started');
      const text = answer.body.toString('latin1');
      const match = ERROR_EVENT[ingress].exec(text);
      assert.ok(match !== null, `no ${ingress} error event in:\n${text.slice(-400)}`);
      assert.ok(match.index > 0, 'some of the stream came before the error');
    });
  }
});
