// The worker's Responses state client over a real MessageChannel to main's service (on a
// memory store): a promise per call settled by main's answer, msgpackr both ways, calls in
// flight at once answered each by its own id, a late answer dropped, a silent main timed out.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MessageChannel } from 'node:worker_threads';
import { ResponseStateClient } from '../../../src/worker/responses/state-client.js';
import { ResponseStateService } from '../../../src/main/responses/response-state-service.js';
import { MemoryStore } from '../../../src/main/store/memory.js';
import { decodeMessage, encodeMessage, type WorkerToMain } from '../../../src/shared/messages.js';
import type { StoredResponse } from '../../../src/shared/responses/stored-response.js';
import { createLogger } from '../../../src/shared/log.js';

function record(id: string): StoredResponse {
  return {
    id,
    keyId: 'k',
    createdAtMs: 0,
    expiresAtMs: 0,
    lane: 'l',
    provider: 'p',
    laneProtocol: 'ollama',
    upstreamId: null,
    previousId: null,
    input: ['é'],
    response: { id },
  };
}

describe('responses state client', () => {
  it('each call is answered by main through the port, concurrent calls by their own ids', async () => {
    const { port1: worker, port2: main } = new MessageChannel();
    const client = new ResponseStateClient(worker, 3);
    const svc = new ResponseStateService(
      new MemoryStore(),
      () => ({ ttlMs: 60_000, maxBytes: 1 << 20 }),
      () => 1_000,
      createLogger('test'),
    );
    const seen: number[] = [];
    main.on('message', (bytes: Uint8Array) => {
      const msg = decodeMessage<WorkerToMain>(bytes);
      if (msg.t !== 'responses-req') return;
      seen.push(msg.workerId);
      void svc.answer(msg.op).then((result) => main.postMessage(encodeMessage({ t: 'responses-res', id: msg.id, result })));
    });
    worker.on('message', (bytes: Uint8Array) => {
      const msg = decodeMessage(bytes);
      if (msg.t === 'responses-res') client.settle(msg.id, msg.result);
    });
    try {
      const puts = await Promise.all(['a', 'b', 'c'].map((id) => client.call({ kind: 'put', record: record(id) })));
      assert.ok(puts.every((p) => p.ok && p.kind === 'put' && p.stored));
      const [a, missing] = await Promise.all([client.call({ kind: 'get', id: 'a', keyId: 'k' }), client.call({ kind: 'get', id: 'zz', keyId: 'k' })]);
      assert.ok(a.ok && a.kind === 'get' && a.record?.id === 'a' && (a.record.input as string[])[0] === 'é');
      assert.deepEqual(missing, { ok: true, kind: 'get', record: null });
      assert.deepEqual(new Set(seen), new Set([3]));
      assert.equal(client.inFlight, 0);
    } finally {
      worker.close();
      main.close();
    }
  });

  it('a main that does not answer: the call answers timeout; its late answer is dropped', async () => {
    const posted: Uint8Array[] = [];
    const client = new ResponseStateClient({ postMessage: (bytes: unknown) => posted.push(bytes as Uint8Array) }, 0, 20);
    const out = await client.call({ kind: 'get', id: 'x', keyId: 'k' });
    assert.deepEqual([out.ok, !out.ok && out.error], [false, 'timeout']);
    const late = decodeMessage<WorkerToMain>(posted[0]!);
    assert.equal(late.t, 'responses-req');
    if (late.t === 'responses-req') client.settle(late.id, { ok: true, kind: 'get', record: null });
    assert.equal(client.inFlight, 0);
  });
});
