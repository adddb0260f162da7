// The seam gate hooks (a later issue) plug into. A pool's gate, when set, is asked once per
// request before the first pick, with the pool's members in config order; it may leave the
// order to SWRR (abstain), reorder the candidates (the router then tries them in that order,
// still skipping unusable members), or reject the request (a 4xx to the caller, no upstream
// dispatched, finish() with disposition client_error). Nothing sets a gate yet: PoolRuntime.gate
// is null, which costs the hot path one pointer check.

export const enum GateVerdict {
  /** Keep SWRR order. */
  Abstain = 0,
  /** `order` holds member indexes to try first, in order. */
  Reorder = 1,
  /** Refuse the request with `status` and `message`. */
  Reject = 2,
}

export interface GateDecision {
  verdict: GateVerdict;
  order: readonly number[];
  status: number;
  message: string;
}

export interface RouteGate {
  /** Decide for one request; called at most once per request and pool. */
  decide(poolName: string, memberCount: number): GateDecision;
}
