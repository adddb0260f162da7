import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeMessage, encodeMessage, type MainToWorker } from '../../../src/shared/messages.js';
import { keyColumns, packColumns, type WorkerGroup, type WorkerKey } from '../../../src/shared/governance/worker-state.js';
import { KeyTable } from '../../../src/worker/governance/key-table.js';

function key(i: number, over: Partial<WorkerKey> = {}): WorkerKey {
  return {
    id: `k${i}`,
    jti: `j${i}`,
    enabled: true,
    group: null,
    pools: ['*'],
    rpm: -1,
    tpm: 100 + i,
    budgetMicros: 1e12 + i,
    budgetWindow: 3,
    slot: 16 + 12 * i,
    awsAccessKeyId: null,
    ...over,
  };
}
const group = (name: string, parent: string | null = null): WorkerGroup => ({
  name,
  parent,
  enabled: true,
  feeMicros: 0,
  rateCard: [],
  limits: [],
  defaultOutput: -1,
  slot: 900,
});

/** The whole state as a worker receives it: columns through msgpack. */
function table(keys: WorkerKey[], groups: WorkerGroup[]): KeyTable {
  const bytes = encodeMessage({ t: 'gov-state', seq: 1, state: { keys: packColumns(keyColumns(keys, keys.length)), groups } });
  const msg = decodeMessage<Extract<MainToWorker, { t: 'gov-state' }>>(bytes);
  const t = new KeyTable();
  t.replace(msg.state);
  return t;
}

describe('worker key table', () => {
  it('keys sent by columns come back exactly, with their group chain', () => {
    const keys = [key(0), key(1, { group: 'child', pools: ['a', 'b'], enabled: false, awsAccessKeyId: 'AKGWX' }), key(2, { rpm: 5 })];
    const t = table(keys, [group('parent'), group('child', 'parent')]);
    assert.equal(t.size, 3);
    for (const k of keys) assert.deepEqual(t.key(k.id)!.key, k);
    assert.deepEqual(
      t.key('k1')!.chain.map((g) => g.name),
      ['child', 'parent'],
    );
    assert.equal(t.byAwsKey('AKGWX')!.key.id, 'k1');
    assert.equal(t.key('nope'), undefined);
  });

  it('updates replace a key, removals drop it (and its AWS credential), group changes rebuild chains', () => {
    const t = table([key(0, { group: 'g' }), key(1, { awsAccessKeyId: 'AKGWY' })], [group('g')]);
    assert.equal(t.key('k0')!.chain.length, 1);
    t.update([key(0, { jti: 'rotated', group: 'g' })], ['k1'], [], ['g']);
    assert.equal(t.key('k0')!.key.jti, 'rotated');
    assert.equal(t.key('k0')!.chain.length, 0, 'the removed group left the chain');
    assert.equal(t.key('k1'), undefined);
    assert.equal(t.byAwsKey('AKGWY'), undefined);
    t.update([key(5)], [], [group('g')], []);
    assert.equal(t.size, 2);
  });
});
