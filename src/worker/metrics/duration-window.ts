// The last `buffer_seconds` of a shared histogram: the exposition keeps snapshots of the
// cumulative bucket counts it read (at most one per step), and a window is the newest counts
// minus the newest snapshot from at least `buffer_seconds` ago (from process start while the
// worker has no snapshot that old).
// Every worker keeps its own snapshots of the same shared counts, so windows agree to within a
// snapshot step. Quantiles interpolate linearly inside a bucket, as histogram_quantile does.

interface Snapshot {
  atMs: number;
  /** Per series slot: non-cumulative bucket counts and the sum. */
  counts: Map<number, readonly number[]>;
  sums: Map<number, number>;
}

export interface WindowCounts {
  /** Non-cumulative counts over the window, one per bucket (the last is +Inf). */
  counts: number[];
  count: number;
  sum: number;
}

export class HistogramWindows {
  private readonly snapshots: Snapshot[] = [];
  private current: Snapshot | null = null;

  /** Start a scrape at `nowMs`: a new snapshot, kept when the last kept one is a step old. */
  begin(nowMs: number, bufferSeconds: number): void {
    const stepMs = Math.max(1000, (bufferSeconds * 1000) / 120);
    const last = this.snapshots[this.snapshots.length - 1];
    this.current = { atMs: nowMs, counts: new Map(), sums: new Map() };
    if (last === undefined || nowMs - last.atMs >= stepMs) this.snapshots.push(this.current);
    // Keep one snapshot at or before the window's start, none older.
    const startMs = nowMs - bufferSeconds * 1000;
    while (this.snapshots.length > 2 && this.snapshots[1]!.atMs <= startMs) this.snapshots.shift();
  }

  /** Record `slot`'s cumulative reading in this scrape and return its window. */
  window(slot: number, counts: readonly number[], sum: number, bufferSeconds: number): WindowCounts {
    const current = this.current!;
    current.counts.set(slot, counts);
    current.sums.set(slot, sum);
    const startMs = current.atMs - bufferSeconds * 1000;
    // The newest snapshot at or before the window's start; none yet (this worker has not been
    // scraping for buffer_seconds) means the window runs from process start.
    let base: Snapshot | null = null;
    for (const s of this.snapshots) {
      if (s === current || s.atMs > startMs) break;
      if (s.counts.has(slot)) base = s;
    }
    const before = base?.counts.get(slot);
    const out: number[] = [];
    let count = 0;
    for (let i = 0; i < counts.length; i++) {
      const c = counts[i]! - (before?.[i] ?? 0);
      out.push(c);
      count += c;
    }
    return { counts: out, count, sum: sum - (base?.sums.get(slot) ?? 0) };
  }
}

/** The q-quantile of a window over `bounds` (upper bounds; the last bucket is +Inf). */
export function bucketQuantile(q: number, bounds: readonly number[], window: WindowCounts): number {
  if (window.count === 0) return NaN;
  const rank = q * window.count;
  let seen = 0;
  for (let i = 0; i < window.counts.length; i++) {
    const c = window.counts[i]!;
    if (seen + c >= rank && c > 0) {
      // Past the last bound the best answer is the last bound (histogram_quantile's rule).
      if (i >= bounds.length) return bounds[bounds.length - 1]!;
      const lower = i === 0 ? 0 : bounds[i - 1]!;
      return lower + (bounds[i]! - lower) * ((rank - seen) / c);
    }
    seen += c;
  }
  return bounds[bounds.length - 1]!;
}
