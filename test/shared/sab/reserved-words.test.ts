// Outstanding words (reserved-words.ts) and reservation journals (reservation-journal.ts): the
// versioned word every write changes, rolls, carries past the 24-bit low count, give-backs that
// never touch another window, and main giving back what a dead worker's journal still holds.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  GOV_KEY_BUDGET_RESERVED,
  GOV_TOKENS_RESERVED,
  JOURNAL_ITEMS_MAX,
  OUTSTANDING_MAX,
  SharedState,
  SlotRegistry,
  itemCount,
  noteItem,
  workerHolder,
  type JournalEntry,
} from '../../../src/shared/sab/index.js';

function setup(): { main: SharedState; registry: SlotRegistry } {
  const main = SharedState.create({ holders: 3 });
  return { main, registry: new SlotRegistry(main) };
}

describe('outstanding words', () => {
  it('count up and down under one window; a give-back of another window is dropped', () => {
    const { main, registry } = setup();
    const r = main.reserved;
    const at = main.governance.groupIndex(registry.groupSlot('g'), 1, GOV_TOKENS_RESERVED);
    assert.equal(r.read(at, 5), 0);
    assert.ok(r.add(at, 5, 40));
    assert.ok(r.add(at, 5, 2));
    assert.equal(r.read(at, 5), 42);
    r.release(at, 4, 42);
    assert.equal(r.read(at, 5), 42, "an older window's give-back does not touch this one");
    r.release(at, 5, 2);
    assert.equal(r.read(at, 5), 40);
    r.release(at, 5, 100);
    assert.equal(r.read(at, 5), 0, 'never below zero');
    // The next window starts at zero; a give-back from the old one is dropped.
    assert.ok(r.add(at, 6, 7));
    r.release(at, 5, 7);
    assert.equal(r.read(at, 6), 7);
    assert.equal(r.read(at, 5), 0);
    assert.equal(r.add(at, 5, 1), false, 'a thread behind the stored window is told so');
  });

  it('every write changes the word, so a look before a give-back and an equal reservation fails its commit (ABA)', () => {
    const { main, registry } = setup();
    const r = main.reserved;
    const other = SharedState.attach(main.buffers(), workerHolder(0)).reserved;
    const at = main.governance.groupIndex(registry.groupSlot('g'), 0, GOV_TOKENS_RESERVED);
    assert.ok(r.add(at, 3, 10));
    r.look(at);
    assert.equal(r.seenCount, 10);
    // Meanwhile another thread gives 10 back and reserves 10 again: the count is 10 as before.
    other.release(at, 3, 10);
    assert.ok(other.add(at, 3, 10));
    assert.equal(other.read(at, 3), 10);
    assert.equal(r.commit(at, 3, 20), false, 'the stale look must not win');
    r.look(at);
    assert.equal(r.commit(at, 3, 20), true);
    assert.equal(r.read(at, 3), 20);
  });

  it('counts carry past the low half exactly and stop at the 40-bit maximum', () => {
    const { main, registry } = setup();
    const r = main.reserved;
    const at = main.governance.keyIndex(registry.allocateKeySlot(), GOV_KEY_BUDGET_RESERVED);
    assert.ok(r.add(at, 9, 2 ** 24 - 1));
    assert.ok(r.add(at, 9, 3));
    assert.equal(r.read(at, 9), 2 ** 24 + 2);
    r.release(at, 9, 5);
    assert.equal(r.read(at, 9), 2 ** 24 - 3, 'a borrow across the halves');
    assert.ok(r.add(at, 9, 5_000_000_000));
    assert.equal(r.read(at, 9), 2 ** 24 - 3 + 5_000_000_000);
    assert.equal(r.add(at, 9, OUTSTANDING_MAX), false, 'past the maximum: refused, unchanged');
    assert.equal(r.read(at, 9), 2 ** 24 - 3 + 5_000_000_000);
  });

  it('inject (fleet) adds under the same window, starts an older one over, leaves a newer one', () => {
    const { main, registry } = setup();
    const r = main.reserved;
    const at = main.governance.groupIndex(registry.groupSlot('g'), 2, GOV_TOKENS_RESERVED);
    assert.ok(r.inject(at, 4, 30));
    assert.ok(r.inject(at, 4, -10));
    assert.equal(r.read(at, 4), 20);
    assert.ok(r.inject(at, 5, 3));
    assert.equal(r.read(at, 5), 3);
    assert.equal(r.inject(at, 4, 100), false);
    assert.equal(r.countAt(at), 3);
    assert.equal(r.tagAt(at), 5);
  });
});

describe('reservation journals', () => {
  it('a worker takes and gives back entries; main gives back what a dead worker still held', () => {
    const { main, registry } = setup();
    const at = main.governance.groupIndex(registry.groupSlot('g'), 0, GOV_TOKENS_RESERVED);
    registry.reservationJournals(4);
    assert.equal(registry.reservationJournals(8), registry.reservationJournals(4), 'once per process');
    const worker = SharedState.attach(main.buffers(), workerHolder(0));
    const entries: JournalEntry[] = [];
    for (let i = 0; i < 4; i++) {
      const e: JournalEntry = { words: new Uint32Array(0), at: 0, capacity: 0 };
      assert.ok(worker.journal.take(e));
      assert.equal(e.capacity, JOURNAL_ITEMS_MAX);
      entries.push(e);
    }
    assert.equal(worker.journal.take({ words: new Uint32Array(0), at: 0, capacity: 0 }), false, 'all four in use');
    // Two requests in flight hold 5 and 7; a third settled (cleared, given back).
    for (const [e, amount] of [
      [entries[0]!, 5],
      [entries[1]!, 7],
      [entries[2]!, 11],
    ] as const) {
      assert.ok(worker.reserved.add(at, 3, amount));
      assert.ok(noteItem(e, at, 3, amount));
    }
    worker.reserved.release(at, 3, 11);
    entries[2]!.words[entries[2]!.at] = 0;
    worker.journal.give(entries[2]!);
    assert.equal(main.reserved.read(at, 3), 12);
    // The worker dies: main gives back its journal's 5 + 7, and clears the entries.
    assert.deepEqual(registry.reclaimHolder(workerHolder(0)), { permits: 0, probes: 0, reservations: 2 });
    assert.equal(main.reserved.read(at, 3), 0);
    assert.equal(itemCount(entries[0]!), 0);
    assert.deepEqual(registry.reclaimHolder(workerHolder(0)), { permits: 0, probes: 0, reservations: 0 }, 'nothing twice');
    // A replacement worker under the same id starts with every entry free.
    const again = SharedState.attach(main.buffers(), workerHolder(0));
    let free = 0;
    while (again.journal.take({ words: new Uint32Array(0), at: 0, capacity: 0 })) free++;
    assert.equal(free, 4);
  });

  it('an entry holds at most its capacity; without journals a worker takes none', () => {
    const { main } = setup();
    const worker = SharedState.attach(main.buffers(), workerHolder(1));
    assert.equal(worker.journal.take({ words: new Uint32Array(0), at: 0, capacity: 0 }), false);
    const e: JournalEntry = { words: new Uint32Array(1 + 2 * 3), at: 0, capacity: 2 };
    assert.ok(noteItem(e, 10, 1, 1));
    assert.ok(noteItem(e, 12, 1, 2 ** 33));
    assert.equal(noteItem(e, 14, 1, 1), false);
    assert.equal(e.words[1 + 3 + 2], 0xffffffff, 'an amount past 2^32 - 1 is noted as that (main gives back less: the safe side)');
  });
});
