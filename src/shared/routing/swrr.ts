// Smooth weighted round robin (nginx's algorithm): every pick adds each usable member's
// weight to its running score, takes the highest, and subtracts the total from the winner.
// Over any window of sum(weights) picks each member is chosen exactly `weight` times, and
// picks are spread out rather than bunched. Unusable members are skipped without disturbing
// the others' scores.

export class SwrrCursor {
  private readonly scores: Float64Array;

  constructor(readonly weights: readonly number[]) {
    this.scores = new Float64Array(weights.length);
  }

  /**
   * Index of the next member, or -1 when none is usable. `usable(i)` is asked once per member;
   * `exclude` is a bit set of members already tried by this request (failover).
   */
  pick(usable: (index: number) => boolean, exclude = 0): number {
    let total = 0;
    let best = -1;
    let bestScore = -Infinity;
    const n = this.weights.length;
    for (let i = 0; i < n; i++) {
      if (i < 31 && (exclude & (1 << i)) !== 0) continue;
      const w = this.weights[i]!;
      if (w <= 0 || !usable(i)) continue;
      const score = this.scores[i]! + w;
      this.scores[i] = score;
      total += w;
      if (score > bestScore) {
        bestScore = score;
        best = i;
      }
    }
    if (best >= 0) this.scores[best] = this.scores[best]! - total;
    return best;
  }
}
