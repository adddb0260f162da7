// The seam between admission (governance) and the end of a request (routing's finish). The
// admission step reserves what a request may use before it is forwarded and hands the
// pipeline a lease; the request's single finish(disposition) settles it exactly once, on
// every exit: success, failure before or after the first byte, caller abort, refusal.
import type { Usage } from '../../shared/model/types.js';

/** The lane that served the request's last attempt, or null when no attempt reached one. */
export interface ServedBy {
  /** Lane name (the config key under `models:`). */
  lane: string;
  /** The lane's id in governance lane slots (src/shared/governance/lane-id.ts). */
  laneId: number;
  /** Provider name of that lane. */
  provider: string;
}

export interface AdmissionLease {
  /** The caller's key id; '' when the front door is open (`auth.chain: []`). */
  readonly keyId: string;
  /**
   * Charge what the request used and release what it held (concurrency). `usage` null: no
   * tokens were metered. `ok` false: the request failed (the reservation is still settled).
   * Called exactly once per lease. `nowMs`: the clock at the request's finish (Date.now()).
   */
  settle(usage: Usage | null, servedBy: ServedBy | null, ok: boolean, nowMs: number): void;
}
