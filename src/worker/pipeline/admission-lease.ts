// The seam between admission (governance) and the end of a request (routing's finish). The
// admission step reserves what a request may use before it is forwarded and hands the
// pipeline a lease; the request's single finish(disposition) settles it exactly once, on
// every exit: success, failure before or after the first byte, caller abort, refusal.
import type { ProtocolName, Usage } from '../../shared/model/types.js';

/** The lane that served the request's last attempt, or null when no attempt reached one. */
export interface ServedBy {
  /** Lane name (the config key under `models:`). */
  lane: string;
  /** The lane's id in governance lane slots (src/shared/governance/lane-id.ts). */
  laneId: number;
  /** Provider name of that lane. */
  provider: string;
  /** The lane's protocol (what its answer's bytes are framed in). */
  protocol: ProtocolName;
}

export interface AdmissionLease {
  /** The caller's key id; '' when the front door is open (`auth.chain: []`). */
  readonly keyId: string;
  /**
   * Replace what admission reserved by what the request used, and release what it held
   * (concurrency). `usage` null: the upstream reported none. `ok` false: the request failed
   * (it is still settled). Called exactly once per lease. `nowMs`: the clock at the request's
   * finish (Date.now()). `sent` false: nothing went upstream (no attempt was dispatched), so
   * nothing is charged and every reservation is released whole. `relayedBytes`: for a caller
   * abort, the bytes of the answer relayed by then (a stream whose upstream reported no usage is
   * charged an estimate of them); 0 otherwise.
   */
  settle(usage: Usage | null, servedBy: ServedBy | null, ok: boolean, nowMs: number, sent?: boolean, relayedBytes?: number): void;
}
