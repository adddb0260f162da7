// The top N keys by spend out of many, with a bounded heap: O(keys x log N) and N objects held,
// instead of sorting every key. The heap's root is the weakest of the N kept, so most keys of a
// big day cost one comparison against it.
import { spendsBefore, type KeyUsageTotals } from './usage-summary.js';

export class TopKeys {
  private readonly heap: KeyUsageTotals[] = [];
  /** Keys offered, kept or not. */
  offered = 0;

  constructor(private readonly limit: number) {}

  offer(key: KeyUsageTotals): void {
    this.offered++;
    const heap = this.heap;
    if (heap.length < this.limit) {
      heap.push(key);
      this.up(heap.length - 1);
    } else if (this.limit > 0 && spendsBefore(key, heap[0]!)) {
      heap[0] = key;
      this.down(0);
    }
  }

  /** The spend a key must reach to be kept (null until N keys are held): lets a caller skip
   * building the entry of a key that spends less. */
  floor(): bigint | null {
    return this.heap.length < this.limit || this.limit === 0 ? null : this.heap[0]!.spendMicros;
  }

  /** The kept keys in spend order. */
  sorted(): KeyUsageTotals[] {
    return [...this.heap].sort((a, b) => (spendsBefore(a, b) ? -1 : spendsBefore(b, a) ? 1 : 0));
  }

  // A min-heap in spend order: a parent never spends before its children.
  private up(at: number): void {
    const heap = this.heap;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!spendsBefore(heap[parent]!, heap[at]!)) break;
      [heap[parent], heap[at]] = [heap[at]!, heap[parent]!];
      at = parent;
    }
  }

  private down(at: number): void {
    const heap = this.heap;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= heap.length) return;
      const right = left + 1;
      const weaker = right < heap.length && spendsBefore(heap[left]!, heap[right]!) ? right : left;
      if (!spendsBefore(heap[at]!, heap[weaker]!)) return;
      [heap[at], heap[weaker]] = [heap[weaker]!, heap[at]!];
      at = weaker;
    }
  }
}
