// The Responses API state rules, pure: what a request with previous_response_id becomes on the
// lane picked for it (the same Responses upstream gets its own id; any other lane the stored
// history), conversation refused off a Responses lane, the record kept for an answer, the
// input_items pages, and the completed Response found in a stream.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { historyItems, planResponsesState, withHistory, type LaneIdentity } from '../../../src/shared/responses/history.js';
import { mintResponseId, storedResponseOf, wantsStore } from '../../../src/shared/responses/record.js';
import { inputItemsPage, inputItemsQuery, inputItemsView } from '../../../src/shared/responses/views.js';
import { CompletedResponseWatcher } from '../../../src/shared/responses/completed-watcher.js';
import type { StoredResponse } from '../../../src/shared/responses/stored-response.js';
import { GatewayError } from '../../../src/shared/errors.js';

const OPENAI: LaneIdentity = { lane: 'lane-responses', provider: 'openai', protocol: 'responses' };
const OTHER_OPENAI: LaneIdentity = { lane: 'lane-responses-2', provider: 'openai-eu', protocol: 'responses' };
const CLAUDE: LaneIdentity = { lane: 'lane-anthropic', provider: 'anthropic', protocol: 'anthropic' };

function turn(id: string, lane: LaneIdentity, previousId: string | null, said: string, answered: string, upstreamId: string | null = null): StoredResponse {
  return {
    id,
    keyId: 'k',
    createdAtMs: 0,
    expiresAtMs: 1,
    lane: lane.lane,
    provider: lane.provider,
    laneProtocol: lane.protocol,
    upstreamId,
    previousId,
    input: [{ type: 'message', role: 'user', content: said }],
    response: {
      id,
      object: 'response',
      output: [
        { id: 'rs_1', type: 'reasoning', summary: [], encrypted_content: 'opaque' },
        { id: `msg_${id}`, type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: answered, annotations: [] }] },
      ],
    },
  };
}

describe('previous_response_id on the lane picked for it', () => {
  const chain = [turn('resp_1', CLAUDE, null, 'My name is Ada.', 'Hello Ada.'), turn('resp_2', OPENAI, 'resp_1', 'And my cat?', 'Tom.', 'resp_up_2')];
  const body = { model: 'pool', input: 'What are our names?', previous_response_id: 'resp_2', store: true };

  it('no previous_response_id: nothing to do', () => {
    assert.deepEqual(planResponsesState({ model: 'pool', input: 'hi' }, null, CLAUDE), { kind: 'none' });
  });

  it('the Responses lane that served the previous turn keeps its state: its own id is passed through', () => {
    const plan = planResponsesState(body, { records: chain, missing: null }, OPENAI);
    assert.deepEqual(plan, { kind: 'pass-through', body: { ...body, previous_response_id: 'resp_up_2' } });
  });

  it('any other lane (another protocol, or another Responses upstream) gets the history, oldest first, and no previous_response_id', () => {
    for (const lane of [CLAUDE, OTHER_OPENAI]) {
      const plan = planResponsesState(body, { records: chain, missing: null }, lane);
      assert.equal(plan.kind, 'history');
      if (plan.kind !== 'history') return;
      assert.equal(plan.body.previous_response_id, undefined);
      assert.equal(plan.body.store, true, "the caller's other fields are kept");
      const messages = (plan.body.input as Array<{ type?: string; content: unknown }>).filter((i) => i.type === 'message');
      const texts = messages.map((i) => (typeof i.content === 'string' ? i.content : (i.content as Array<{ text: string }>)[0]!.text));
      assert.deepEqual(texts, ['My name is Ada.', 'Hello Ada.', 'And my cat?', 'Tom.', 'What are our names?']);
    }
  });

  it("history keeps a turn's items as they were for the lane that made them; for another, ids and reasoning are dropped", () => {
    const items = historyItems(chain, CLAUDE) as Array<Record<string, unknown>>;
    // resp_1 was CLAUDE's own: its reasoning item and message id stay.
    assert.deepEqual(
      items.slice(0, 3).map((i) => [i.type ?? 'message', i.id]),
      [
        ['message', undefined],
        ['reasoning', 'rs_1'],
        ['message', 'msg_resp_1'],
      ],
    );
    // resp_2 was another lane's: no reasoning, no id, no status.
    assert.deepEqual(
      items.slice(3).map((i) => [i.type ?? 'message', i.id, i.status]),
      [
        ['message', undefined, undefined],
        ['message', undefined, undefined],
      ],
    );
  });

  it('a previous response the store does not hold: passed through to a Responses lane (the upstream may hold it), refused elsewhere', () => {
    const none = { records: [], missing: 'resp_2' };
    assert.deepEqual(planResponsesState(body, none, OPENAI), { kind: 'pass-through', body });
    const refused = planResponsesState(body, none, CLAUDE);
    assert.equal(refused.kind, 'refused');
    if (refused.kind === 'refused') {
      assert.equal(refused.error.kind, 'invalid_request');
      assert.match(refused.error.message, /Previous response with id 'resp_2' not found/);
    }
  });

  it('a chain with a turn no longer stored is refused, naming it; an unavailable store is an error off a Responses lane', () => {
    const broken = planResponsesState(body, { records: [chain[1]!], missing: 'resp_1' }, CLAUDE);
    assert.ok(broken.kind === 'refused' && /'resp_1'/.test(broken.error.message));
    assert.equal(planResponsesState(body, 'unavailable', OPENAI).kind, 'pass-through');
    const down = planResponsesState(body, 'unavailable', CLAUDE);
    assert.ok(down.kind === 'refused' && down.error.kind === 'internal');
    const bad = planResponsesState({ ...body, previous_response_id: 7 }, null, CLAUDE);
    assert.ok(bad.kind === 'refused' && bad.error.kind === 'invalid_request');
  });

  it('conversation: kept by OpenAI, so a Responses lane takes it and any other refuses it with a 400 that says why', () => {
    const withConversation = { model: 'pool', input: 'hi', conversation: 'conv_1' };
    assert.deepEqual(planResponsesState(withConversation, null, OPENAI), { kind: 'none' });
    const refused = planResponsesState(withConversation, null, CLAUDE);
    assert.ok(refused.kind === 'refused');
    if (refused.kind === 'refused') {
      assert.ok(refused.error instanceof GatewayError);
      assert.equal(refused.error.kind, 'untranslatable');
      assert.match(refused.error.message, /conversations are kept by OpenAI's Responses API; use previous_response_id/);
    }
  });

  it('withHistory puts a string input after the history as a user message', () => {
    assert.deepEqual(withHistory({ input: 'now', previous_response_id: 'x' }, [{ type: 'message', role: 'user', content: 'before' }]), {
      input: [
        { type: 'message', role: 'user', content: 'before' },
        { type: 'message', role: 'user', content: 'now' },
      ],
    });
  });
});

describe('the record kept for an answer', () => {
  it("this turn's own input, the answer, the lane and the upstream's id; store: false keeps nothing", () => {
    const request = { model: 'pool', input: 'hi', previous_response_id: 'resp_0' };
    const record = storedResponseOf({
      request,
      response: { id: 'resp_9', object: 'response', output: [] },
      keyId: 'k1',
      lane: OPENAI,
      upstreamId: 'resp_9',
      nowMs: 1000,
      ttlMs: 50,
    });
    assert.deepEqual(record, {
      id: 'resp_9',
      keyId: 'k1',
      createdAtMs: 1000,
      expiresAtMs: 1050,
      lane: 'lane-responses',
      provider: 'openai',
      laneProtocol: 'responses',
      upstreamId: 'resp_9',
      previousId: 'resp_0',
      input: [{ type: 'message', role: 'user', content: 'hi' }],
      response: { id: 'resp_9', object: 'response', output: [], previous_response_id: 'resp_0' },
    });
    assert.equal(
      storedResponseOf({ request, response: { object: 'response' }, keyId: 'k1', lane: OPENAI, upstreamId: null, nowMs: 0, ttlMs: 1 }),
      null,
      'no id, nothing to keep it under',
    );
    assert.equal(wantsStore({}), true);
    assert.equal(wantsStore({ store: false }), false);
    assert.match(mintResponseId(), /^resp_[0-9a-f]{48}$/);
    assert.notEqual(mintResponseId(), mintResponseId());
  });
});

describe('input_items pages', () => {
  const record = turn('resp_abc', OPENAI, null, 'x', 'y');
  record.input = [
    { type: 'message', role: 'user', content: 'one' },
    { type: 'function_call_output', call_id: 'c1', output: 'two' },
    { id: 'msg_own', type: 'message', role: 'user', content: [{ type: 'input_text', text: 'three' }] },
  ];

  it('newest first by default, ids made where the caller gave none, string content as a text part', () => {
    const page = inputItemsPage(record, inputItemsQuery(''));
    assert.deepEqual(
      page.data.map((i) => (i as { id: string }).id),
      ['msg_own', 'item_abc_1', 'item_abc_0'],
    );
    assert.deepEqual((page.data[2] as { content: unknown }).content, [{ type: 'input_text', text: 'one' }]);
    assert.deepEqual([page.firstId, page.lastId, page.hasMore], ['msg_own', 'item_abc_0', false]);
    assert.deepEqual(JSON.parse(inputItemsView(page)).object, 'list');
  });

  it('limit, order and after page through them', () => {
    const first = inputItemsPage(record, inputItemsQuery('order=asc&limit=2'));
    assert.deepEqual([first.data.length, first.firstId, first.lastId, first.hasMore], [2, 'item_abc_0', 'item_abc_1', true]);
    const next = inputItemsPage(record, inputItemsQuery(`order=asc&limit=2&after=${first.lastId}`));
    assert.deepEqual([next.data.length, next.firstId, next.hasMore], [1, 'msg_own', false]);
  });

  it('a bad query is a 400 naming it', () => {
    assert.throws(() => inputItemsQuery('limit=0'), /limit must be an integer in 1..100/);
    assert.throws(() => inputItemsQuery('limit=101'), /limit/);
    assert.throws(() => inputItemsQuery('order=up'), /order must be/);
  });
});

describe('the completed Response in a stream', () => {
  const completed = {
    type: 'response.completed',
    response: { id: 'resp_s', object: 'response', status: 'completed', output: [{ type: 'message', content: [{ type: 'output_text', text: 'héllo' }] }] },
  };
  const stream = `event: response.created\ndata: {"type":"response.created","response":{"id":"resp_s"}}\n\nevent: response.output_text.delta\ndata: {"delta":"h"}\n\nevent: response.completed\ndata: ${JSON.stringify(completed)}\n\n`;

  it('found whole, or in pieces split anywhere (UTF-8 inside a character included)', () => {
    const whole = new CompletedResponseWatcher(1 << 20);
    whole.push(stream);
    assert.deepEqual(whole.result(), completed.response);
    const bytes = Buffer.from(stream);
    for (const size of [1, 3, 7, 64]) {
      const w = new CompletedResponseWatcher(1 << 20);
      for (let at = 0; at < bytes.length; at += size) w.push(bytes.subarray(at, at + size));
      assert.deepEqual(w.result(), completed.response, `pieces of ${size}`);
    }
    const parts = new CompletedResponseWatcher(1 << 20);
    parts.push([bytes.subarray(0, 10), bytes.subarray(10)]);
    assert.deepEqual(parts.result(), completed.response);
  });

  it('none when the stream ended without it, or when it is over the bound', () => {
    const failed = new CompletedResponseWatcher(1 << 20);
    failed.push(stream.slice(0, stream.indexOf('event: response.completed')) + 'event: error\ndata: {"type":"error"}\n\n');
    assert.equal(failed.result(), null);
    const small = new CompletedResponseWatcher(64);
    small.push(stream);
    assert.equal(small.result(), null);
  });
});
