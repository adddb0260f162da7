// Fleet reconciliation of governance counters, two nodes in one process: each node has its own
// shared memory and its own handle on one postgres or valkey store. Shows: each node's counters hold the other's
// count after a flush; deltas only (no double counting across flushes); a flush whose reply was
// lost is retried with the same batch id and counted once; a new window starts over.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { GOV_REQUESTS, SharedState, SlotRegistry } from '../../../src/shared/sab/index.js';
import { GOV_GROUP_LANE_SLOTS, GOV_GROUP_LANE_SLOTS_AT, GOV_SLOT_INPUT, GOV_SLOT_OUTPUT } from '../../../src/shared/sab/layout.js';
import { FleetReconciler } from '../../../src/main/governance/fleet-reconcile.js';
import type { GovernanceService } from '../../../src/main/governance/service.js';
import type { FleetCounters } from '../../../src/main/store/fleet-counters.js';
import type { Store } from '../../../src/main/store/store.js';
import { createLogger } from '../../../src/shared/log.js';
import { createBackend, type StoreBackend } from '../../helpers/store-backends.js';

const log = createLogger('test');
log.level = 'silent';

interface Node {
  shared: SharedState;
  fleet: FleetReconciler;
  store: Store & FleetCounters;
  /** Requests counted under window `tag` of group g's minute window. */
  reserve(tag: number, n: number): void;
  read(tag: number): number;
  /** Ledger tokens of `lane` in group g's minute window (its lane slots claimed first-free). */
  laneTokens(tag: number, lane: number, input: number, output: number): void;
  /** Lane `lane`'s [input, output] in that window (claims a slot if none holds it). */
  readLane(tag: number, lane: number): [number, number];
}

function node(store: Store & FleetCounters): Node {
  const shared = SharedState.create({ holders: 2 });
  const registry = new SlotRegistry(shared);
  const slot = registry.groupSlot('g');
  const service = { shared, registry, keySlots: new Map(), groups: new Map([['g', {}]]), revocations: new Map() } as unknown as GovernanceService;
  const fleet = new FleetReconciler(service, store, log);
  const at = shared.governance.groupIndex(slot, 0, GOV_REQUESTS);
  return {
    shared,
    fleet,
    store,
    reserve: (tag, n) => void shared.governance.tryReserve(at, tag, n, -1),
    read: (tag) => shared.governance.read(at, tag),
    laneTokens: (tag, lane, input, output) => shared.governance.addGroupLaneTokens(slot, 0, tag, lane, { input, output, cacheRead: 0, cacheCreation: 0 }),
    readLane: (tag, lane) => {
      const g = shared.governance;
      const slotAt = g.laneSlotAt(g.groupIndex(slot, 0, GOV_GROUP_LANE_SLOTS_AT), GOV_GROUP_LANE_SLOTS, tag, lane);
      return [g.read(slotAt + GOV_SLOT_INPUT, tag), g.read(slotAt + GOV_SLOT_OUTPUT, tag)];
    },
  };
}

for (const module of ['postgres', 'valkey'] as const) {
  describe(`fleet reconciliation of governance counters (two nodes, ${module})`, () => {
    let backend: StoreBackend;
    const stores: Store[] = [];
    before(async () => {
      backend = await createBackend(module);
    });
    after(async () => {
      for (const s of stores) await s.close().catch(() => undefined);
      await backend?.cleanup();
    });
    const open = (): Store & FleetCounters => {
      const s = backend.open() as Store & FleetCounters;
      stores.push(s);
      return s;
    };

    it('each node ends up holding both counts, once, and a lost reply is not counted twice', async () => {
      const a = node(open());
      const b = node(open());
      a.reserve(100, 5);
      b.reserve(100, 3);
      await a.fleet.flush([]);
      await b.fleet.flush([]);
      await a.fleet.flush([]);
      assert.equal(a.read(100), 8);
      assert.equal(b.read(100), 8);
      // More on A only: B learns the delta, A does not count its own twice.
      a.reserve(100, 2);
      await a.fleet.flush([]);
      await a.fleet.flush([]);
      await b.fleet.flush([]);
      assert.equal(a.read(100), 10);
      assert.equal(b.read(100), 10);

      // A's next flush is committed by the store but its reply is lost: A retries the same batch.
      const real = a.store.reconcileCounters.bind(a.store);
      let lose = true;
      a.store.reconcileCounters = async (batch, deltas, since) => {
        const result = await real(batch, deltas, since);
        if (lose) {
          lose = false;
          throw new Error('connection reset (reply lost)');
        }
        return result;
      };
      a.reserve(100, 4);
      await a.fleet.flush([]);
      assert.equal(a.fleet.failures, 1);
      await a.fleet.flush([]);
      await b.fleet.flush([]);
      assert.equal(b.read(100), 14, 'the 4 were added to the fleet once');
      assert.equal(a.read(100), 14);

      // A new window starts over on both nodes.
      b.reserve(101, 1);
      await b.fleet.flush([]);
      await a.fleet.flush([]);
      assert.equal(a.read(101), 1);
      assert.equal(a.read(100), 1, 'a reader of the old window sees the newer one');
    });

    it('sums lane tokens by lane, whichever slot each node claimed for it', async () => {
      const a = node(open());
      const b = node(open());
      const tag = 200;
      a.laneTokens(tag, 11, 100, 10); // A: lane 11 in slot 0, lane 22 in slot 1
      a.laneTokens(tag, 22, 5, 1);
      b.laneTokens(tag, 22, 7, 2); // B: the other way round
      b.laneTokens(tag, 11, 1000, 20);
      await a.fleet.flush([]);
      await b.fleet.flush([]);
      await a.fleet.flush([]);
      for (const n of [a, b]) {
        assert.deepEqual(n.readLane(tag, 11), [1100, 30]);
        assert.deepEqual(n.readLane(tag, 22), [12, 3]);
      }
      // A lane B has not seen yet takes a free slot on B.
      a.laneTokens(tag, 33, 4, 4);
      await a.fleet.flush([]);
      await b.fleet.flush([]);
      assert.deepEqual(b.readLane(tag, 33), [4, 4]);
      assert.deepEqual(a.readLane(tag, 11), [1100, 30], 'no double count on A');
    });
  });
}
