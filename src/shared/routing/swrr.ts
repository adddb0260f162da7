// Smooth weighted round robin (nginx's algorithm): every pick adds each eligible member's
// weight to its running score, takes the highest, and subtracts the total from the winner.
// Over any window of sum(weights) picks each member is chosen exactly `weight` times, and
// picks are spread out rather than bunched. Ineligible members are skipped without disturbing
// the others' scores. No limit on the member count: eligibility is asked of a filter object
// (the router, which knows the request), so a pick allocates nothing.

/** Decides, per pick, whether member `index` may be chosen. */
export interface MemberFilter {
  eligible(index: number): boolean;
}

export class SwrrCursor {
  private readonly scores: Float64Array;

  constructor(readonly weights: readonly number[]) {
    this.scores = new Float64Array(weights.length);
  }

  /** Index of the next member, or -1 when none is eligible. `filter` is asked once per member. */
  pick(filter: MemberFilter): number {
    let total = 0;
    let best = -1;
    let bestScore = -Infinity;
    const n = this.weights.length;
    const scores = this.scores;
    for (let i = 0; i < n; i++) {
      const w = this.weights[i]!;
      if (w <= 0 || !filter.eligible(i)) continue;
      const score = scores[i]! + w;
      scores[i] = score;
      total += w;
      if (score > bestScore) {
        bestScore = score;
        best = i;
      }
    }
    if (best >= 0) scores[best] = scores[best]! - total;
    return best;
  }

  /** Same weights: a config apply that did not change the pool keeps this cursor. */
  sameWeights(weights: readonly number[]): boolean {
    if (weights.length !== this.weights.length) return false;
    for (let i = 0; i < weights.length; i++) if (weights[i] !== this.weights[i]) return false;
    return true;
  }
}
