// The attempt loop in process: a fake dispatcher answers each attempt, the clocks are the
// test's, everything else (config, runtime, shared memory, router, metering, timers) is real.
// Each exit of the loop, with its disposition, its breaker effect and the caller's answer.
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HEAD_TIMEOUT } from '../../../src/worker/upstream/attempt-timers.js';
import { idWithReasoning } from '../../../src/shared/protocols/reasoning/call-id.js';
import { startRig, type Rig } from './attempt-rig.js';

const OK_BODY = JSON.stringify({
  id: 'c1',
  object: 'chat.completion',
  created: 1,
  model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content: 'hello' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
});

let rig: Rig | null = null;
afterEach(() => {
  rig?.close();
  rig = null;
});

function inflight(r: Rig, lane: string): number {
  return r.shared.lanes.laneInflight(r.config.lanes.find((l) => l.name === lane)!.slot);
}

describe('the attempt loop', () => {
  it('a success relays the upstream bytes as they came and ends ok, the permit back', async () => {
    rig = await startRig({ p: { members: [{ model: 'm1' }] } });
    const { client } = rig.chat('p');
    assert.equal(rig.sent.length, 1);
    assert.equal(rig.sent[0]!.opts.path, '/v1/chat/completions');
    assert.match(rig.sent[0]!.body, /"model":"m1"/, "the model rewritten to the lane's");
    assert.equal(inflight(rig, 'm1'), 1, 'the permit is held while the attempt is in flight');
    rig.sent[0]!.answer(200, OK_BODY);
    assert.equal(client.status, 200);
    assert.equal(client.body, OK_BODY);
    assert.equal(rig.disposition('p', 0, 'ok'), 1);
    assert.equal(inflight(rig, 'm1'), 0);
  });

  it("a success's latency sample is the attempt's own time, on the injected clock", async () => {
    rig = await startRig({ p: { members: [{ model: 'm1' }] } });
    rig.chat('p');
    rig.clock.advance(37);
    rig.sent[0]!.answer(200, OK_BODY);
    const lane = rig.config.lanes.find((l) => l.name === 'm1')!;
    assert.equal(rig.shared.lanes.latencyEwmaMs(lane.slot), 37);
  });

  it('a 503 fails over to the next member; the first cell records the failure', async () => {
    rig = await startRig({ p: { members: [{ model: 'm1' }, { model: 'm2' }] } });
    const { client } = rig.chat('p');
    const first = rig.sent[0]!;
    first.answer(503, '{"error":{"message":"busy"}}');
    assert.equal(rig.sent.length, 2, 'a second attempt');
    assert.notEqual(rig.sent[1]!.body, first.body, 'to the other lane');
    rig.sent[1]!.answer(200, OK_BODY);
    assert.equal(client.status, 200);
    const p = rig.config.pools[0]!;
    const failed = first.body.includes('"m1"') ? 0 : 1;
    assert.equal(rig.shared.breakers.streak(p.members[failed]!.cellSlot), 1, "the failed member's cell moved");
    assert.equal(rig.shared.metrics.counterValue(p.failoverSlots[2]!), 1, 'one failover, reason transient_upstream');
    assert.equal(rig.disposition('p', 1 - failed, 'ok'), 1);
  });

  it("a connect error with no member left answers 502 in the caller's shape", async () => {
    rig = await startRig({ p: { members: [{ model: 'm1' }] } });
    const { client } = rig.chat('p');
    rig.sent[0]!.fail('ECONNREFUSED');
    assert.equal(client.status, 502);
    assert.equal(JSON.parse(client.body).error.type, 'server_error');
    assert.equal(rig.disposition('p', 0, 'transient_upstream'), 1);
    assert.equal(inflight(rig, 'm1'), 0);
  });

  it('a head that does not come in time: the sweep aborts the attempt at the deadline, never before', async () => {
    rig = await startRig({ p: { members: [{ model: 'm1' }], failover: { attempt_timeout_secs: 2 } } });
    const { client } = rig.chat('p');
    const sent = rig.sent[0]!;
    sent.connect();
    rig.clock.advance(1_999);
    rig.timers.sweep(rig.clock.mono);
    assert.equal(sent.aborted, null, 'not early');
    rig.clock.advance(1);
    rig.timers.sweep(rig.clock.mono);
    assert.equal(sent.aborted, HEAD_TIMEOUT);
    assert.equal(client.status, 504);
    assert.equal(rig.disposition('p', 0, 'attempt_timeout'), 1);
  });

  it('a caller that goes away mid-flight cancels the attempt: caller_abort, no breaker move', async () => {
    rig = await startRig({ p: { members: [{ model: 'm1' }] } });
    const { client } = rig.chat('p');
    const sent = rig.sent[0]!;
    sent.connect();
    client.abort();
    assert.notEqual(sent.aborted, null, 'the upstream request was aborted');
    assert.equal(rig.disposition('p', 0, 'caller_abort'), 1);
    assert.equal(rig.shared.breakers.streak(rig.config.pools[0]!.members[0]!.cellSlot), 0);
    assert.equal(inflight(rig, 'm1'), 0);
  });

  it("a stream that breaks after the first byte ends with the protocol's error event", async () => {
    rig = await startRig({ p: { members: [{ model: 'm1' }, { model: 'm2' }] } });
    const { client } = rig.chat('p', { stream: true });
    const sent = rig.sent[0]!;
    sent.connect();
    sent.head(200, { 'content-type': 'text/event-stream' });
    sent.data(
      'data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"he"},"finish_reason":null}]}\n\n',
    );
    sent.fail('ECONNRESET');
    assert.equal(rig.sent.length, 1, 'no failover after the first byte');
    assert.ok(client.ended);
    assert.match(client.body, /data: \{"error":/);
    const member = sent.body.includes('"m1"') ? 0 : 1;
    assert.equal(rig.disposition('p', member, 'transient_upstream'), 1);
  });

  it('a request out of time before any attempt: 504, counted on the pool with no lane', async () => {
    rig = await startRig({ p: { members: [{ model: 'm1' }], failover: { timeout_secs: 1 } } });
    const { client } = rig.chat('p', { startedMs: rig.clock.mono - 5_000 });
    assert.equal(rig.sent.length, 0);
    assert.equal(client.status, 504);
    assert.equal(rig.disposition('p', -1, 'attempt_timeout'), 1);
  });

  it('no usable member: 503 with the soonest cooldown as Retry-After', async () => {
    rig = await startRig({ p: { members: [{ model: 'm1' }], breaker: { trip: 'consecutive', consecutive_n: 1, base_cooldown_secs: 15 } } });
    rig.chat('p');
    rig.sent[0]!.answer(500, '{}');
    const { client } = rig.chat('p');
    assert.equal(rig.sent.length, 1, 'nothing sent to a tripped lane');
    assert.equal(client.status, 503);
    const retry = Number(client.headers['retry-after']);
    assert.ok(retry >= 13 && retry <= 17, `Retry-After ${retry} is the jittered cooldown`);
    assert.equal(rig.disposition('p', -1, 'exhausted'), 1);
  });

  it("a request the lane's protocol cannot honour: untranslatable (400), nothing dispatched, no breaker move", async () => {
    rig = await startRig({ p: { members: [{ model: 'c1' }] } }, { c1: { provider: 'claude' } });
    const { client } = rig.chat('p', { extra: { n: 2 } });
    assert.equal(rig.sent.length, 0);
    assert.equal(client.status, 400);
    assert.equal(JSON.parse(client.body).error.code, 'untranslatable');
    assert.equal(rig.disposition('p', 0, 'untranslatable'), 1);
    assert.equal(rig.shared.breakers.streak(rig.config.pools[0]!.members[0]!.cellSlot), 0);
  });

  it("a translated attempt: the Anthropic lane's answer comes back in the caller's protocol", async () => {
    rig = await startRig({ p: { members: [{ model: 'c1' }] } }, { c1: { provider: 'claude' } });
    const { client } = rig.chat('p');
    assert.equal(rig.sent[0]!.opts.path, '/v1/messages');
    rig.sent[0]!.answer(
      200,
      JSON.stringify({
        id: 'm',
        type: 'message',
        role: 'assistant',
        model: 'c',
        content: [{ type: 'text', text: 'hi' }],
        stop_reason: 'end_turn',
        usage: { input_tokens: 1, output_tokens: 1 },
      }),
    );
    assert.equal(client.status, 200);
    assert.equal(JSON.parse(client.body).choices[0].message.content, 'hi');
    assert.equal(rig.disposition('p', 0, 'ok'), 1);
  });

  it("a same-protocol body holding another family's reasoning state is translated, not passed through: the lane gets its own ids", async () => {
    rig = await startRig({ p: { members: [{ model: 'm1' }] } });
    const state = [{ type: 'reasoning' as const, text: 'hmm', family: 'anthropic' as const, signature: 'sig' }];
    const id = idWithReasoning('toolu_1', state);
    rig.chat('p', {
      extra: {
        messages: [
          { role: 'user', content: 'weather?' },
          { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'get_weather', arguments: '{}' } }] },
          { role: 'tool', tool_call_id: id, content: 'sunny' },
        ],
      },
    });
    const sent = rig.sent[0]!.body;
    assert.doesNotMatch(sent, /gwReason/, 'no gateway token reaches the lane');
    assert.match(sent, /"toolu_1"/, 'the call id as the lane that made it gave it');
  });
});
