import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  HEADER_BYTES,
  KIND_CELL,
  KIND_GOV_GROUP,
  KIND_LANE,
  SharedCapacityError,
  SharedState,
  SlotRegistry,
  type SharedBuffers,
} from '../../../src/shared/sab/index.js';

describe('slot registry', () => {
  it('gives a name the same slot every time, and distinct names distinct slots', () => {
    const main = SharedState.create({ holders: 2 });
    const r = new SlotRegistry(main);
    const a = r.laneSlot('a');
    const cell = r.cellSlot('p', 'a');
    const def = r.defaultCellSlot('a');
    const g = r.groupSlot('x');
    for (let i = 0; i < 3; i++) {
      assert.equal(r.laneSlot('a'), a);
      assert.equal(r.cellSlot('p', 'a'), cell);
      assert.equal(r.defaultCellSlot('a'), def);
      assert.equal(r.groupSlot('x'), g);
    }
    const all = [a, cell, def, g, r.laneSlot('b'), r.cellSlot('q', 'a'), r.cellSlot('p', 'b'), r.concurrencySlot('group:x@day')];
    assert.equal(new Set(all).size, all.length);
    for (const s of all) assert.equal(s % 2, 0, '8-byte aligned');
    assert.equal(main.kindAt(a), KIND_LANE);
    assert.equal(main.kindAt(cell), KIND_CELL);
    assert.equal(main.kindAt(g), KIND_GOV_GROUP);
    assert.deepEqual([...r.cellsOfLane('a')].sort(), [cell, def, r.cellSlot('q', 'a')].sort());
    assert.deepEqual(r.cellsOfLane('nope'), []);
    assert.equal(r.counts().lanes, 2);
    assert.equal(r.counts().cells, 4);
  });

  it('pool and lane names cannot collide into one cell', () => {
    const r = new SlotRegistry(SharedState.create({ holders: 1 }));
    assert.notEqual(r.cellSlot('a\u0000b', 'c'), r.cellSlot('a', 'b\u0000c'));
  });

  it('counters carry across a re-assignment (config apply)', () => {
    const main = SharedState.create({ holders: 1 });
    const r = new SlotRegistry(main);
    main.lanes.recordOutcome(r.laneSlot('a'), true);
    main.breakers.incrementTripCount(r.cellSlot('p', 'a'));
    r.laneSlot('b');
    assert.equal(main.lanes.laneOk(r.laneSlot('a')), 1);
    assert.equal(main.breakers.tripCount(r.cellSlot('p', 'a')), 1);
  });

  it('grows the buffer as slots are assigned and reports bytesNeeded', () => {
    const main = SharedState.create({ holders: 1, initialBytes: 0, maxBytes: 1 << 20 });
    const r = new SlotRegistry(main);
    assert.equal(main.byteLength(), HEADER_BYTES);
    assert.equal(r.bytesNeeded(), HEADER_BYTES);
    const slots: number[] = [];
    for (let i = 0; i < 50; i++) slots.push(r.cellSlot('p', `lane${i}`));
    assert.ok(main.byteLength() >= r.bytesNeeded());
    assert.ok(main.covers(r.bytesNeeded()));
    const last = slots[slots.length - 1]!;
    main.breakers.incrementStreak(last);
    assert.equal(main.breakers.streak(last), 1);
  });

  it('hitting the maximum throws SharedCapacityError and records nothing', () => {
    const main = SharedState.create({ holders: 1, initialBytes: 0, maxBytes: 4096 });
    const r = new SlotRegistry(main);
    r.cellSlot('p', 'a');
    r.cellSlot('p', 'b');
    r.cellSlot('p', 'c');
    const before = r.bytesNeeded();
    assert.throws(
      () => r.cellSlot('p', 'd'),
      (err: unknown) => {
        assert.ok(err instanceof SharedCapacityError);
        assert.match(err.message, /breaker cell "p"\/"d"/);
        assert.equal(err.maxBytes, 4096);
        return true;
      },
    );
    assert.equal(r.bytesNeeded(), before);
    assert.equal(r.counts().cells, 3);
    const small = r.laneSlot('fits');
    main.lanes.tryAcquirePermit(small, 1);
    assert.equal(main.lanes.laneInflight(small), 1);
    assert.throws(() => main.ensureBytes(8192), SharedCapacityError);
  });

  it('ensureBytes grows for a compiled config and only main may grow', () => {
    const main = SharedState.create({ holders: 2, initialBytes: 0, maxBytes: 1 << 16 });
    main.ensureBytes(1000);
    assert.ok(main.byteLength() >= 1000);
    const w = SharedState.attach(main.buffers(), 1);
    assert.equal(w.byteLength(), main.byteLength());
    assert.throws(() => w.ensureBytes(5000), /only the main thread/);
  });
});

describe('create and attach', () => {
  it('rejects bad options', () => {
    assert.throws(() => SharedState.create({ holders: 0 }), RangeError);
    assert.throws(() => SharedState.create({ holders: 2000 }), RangeError);
    assert.throws(() => SharedState.create({ maxBytes: 8 }), RangeError);
    assert.throws(() => SharedState.create({ timeBaseMs: Number.NaN }), RangeError);
  });

  it('refuses a foreign buffer, a fixed-size buffer and an out-of-range holder', () => {
    const main = SharedState.create({ holders: 2 });
    assert.throws(() => SharedState.attach(main.buffers(), 2), RangeError);
    assert.throws(() => SharedState.attach({ memory: new SharedArrayBuffer(64) }, 1), /growable/);
    assert.throws(() => SharedState.attach({} as SharedBuffers, 1), TypeError);
    const foreign = SharedState.create({ holders: 2 });
    new Int32Array(foreign.buffers().memory)[0] = 0;
    assert.throws(() => SharedState.attach(foreign.buffers(), 1), /no gateway header/);
  });

  it('a registry belongs to main', () => {
    const main = SharedState.create({ holders: 2 });
    assert.throws(() => new SlotRegistry(SharedState.attach(main.buffers(), 1)), /main thread/);
  });
});
