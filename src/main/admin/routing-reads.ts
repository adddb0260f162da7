// What the routing admin reads need from the main thread: its view of shared memory (holder
// 0, attached at boot) and a clock. One field of AdminContext (`routing`).
import type { SharedState } from '../../shared/sab/index.js';

export interface RoutingReads {
  shared: SharedState;
  /** Epoch ms now. */
  nowMs(): number;
}
