// The seam gate hooks plug into. A pool's gate, when set, is asked once per
// request before the first pick, with the pool's members in config order; it may leave the
// order to SWRR (abstain), reorder the candidates (the router then tries them in that order,
// still skipping unusable members), or reject the request (a 4xx to the caller, no upstream
// dispatched; the request ends with disposition client_error). PoolRuntime.gate is null for a pool
// without gate hooks, which costs the hot path one pointer check; src/worker/hooks/pool-gate.ts
// is the gate of a pool that has some (its answer arrives asynchronously, over the wire).

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
  /** A gate with `prompt: rw` replaced the request body (applied before translation); undefined: unchanged. */
  body?: unknown;
}

/** What a gate may be told of the request (each hook sees only what its grants allow). */
export interface GateRequest {
  readonly requestId: string;
  /** The caller's protocol. */
  readonly protocolName: string;
  readonly model: string;
  readonly stream: boolean;
  /** The caller's JSON body. */
  readonly body: unknown;
  /** The caller's key id ('' when anonymous). */
  readonly keyId: string;
}

export interface RouteGate {
  /** Decide for one request; called at most once per request and pool. A promise: the decision comes over the wire. */
  decide(poolName: string, memberCount: number, request: GateRequest): GateDecision | Promise<GateDecision>;
}
