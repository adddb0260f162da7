// The admit step: a lease for the request, or the refusal that answers it (see admission.ts).
import type { Buffer } from 'node:buffer';
import type { SharedState } from '../../shared/sab/index.js';
import type { Codec } from '../../shared/protocols/codec.js';
import type { AdmissionLease } from '../pipeline/admission-lease.js';
import type { Metering } from '../metering.js';
import { checkAccess, reserve, type AdmissionCounters } from './admission.js';
import { WindowClock } from '../../shared/governance/window-clock.js';
import type { AdmissionKey } from './key-table.js';
import { GovernanceLease, OPEN_LEASE } from './lease.js';
import type { Refusal } from './refusal.js';
import { RequestEstimate, targetName, type AdmissionTarget } from './request-estimate.js';
import { DeferredSettles } from './deferred-settles.js';

export class Admission {
  private readonly clock = new WindowClock();
  private readonly counters: AdmissionCounters;
  /** One estimate per worker, refilled per request (admission is synchronous). */
  private readonly estimate = new RequestEstimate();

  constructor(
    shared: SharedState,
    private readonly metering: Metering,
  ) {
    this.counters = {
      counters: shared.governance,
      reserved: shared.reserved,
      journal: shared.journal,
      gate: shared.settleGate,
      deferred: new DeferredSettles(),
    };
  }

  /**
   * `key` null: the open front door. `target`: the pool, or on a direct route the lane.
   * `nowSec`: the request's clock reading (epoch seconds). `codec`, `body`, `head`: the caller's
   * protocol, the body's bytes and the body as read (whole, or the members the path read: see
   * membersToRead in src/shared/governance/estimators.ts), for the estimate reserved against
   * tokens and budget limits.
   */
  admit(
    key: AdmissionKey | null,
    target: AdmissionTarget,
    governanceEnabled: boolean,
    nowSec: number,
    codec: Codec,
    body: Buffer,
    head: unknown,
  ): AdmissionLease | Refusal {
    if (key === null) return OPEN_LEASE;
    const denied = checkAccess(key, targetName(target));
    if (denied !== null) return denied;
    // Governance off: keys still authenticate and pools still apply; nothing is counted or metered.
    if (!governanceEnabled) return new GovernanceLease(key, null, null, this.clock);
    const lease = new GovernanceLease(key, this.counters, this.metering, this.clock);
    let estimate: RequestEstimate | null = null;
    if (key.reservations > 0) {
      estimate = this.estimate;
      estimate.fill(codec.name, body, head, target, key.defaultOutput);
      lease.inputEstimate = estimate.inputTokens;
      lease.outputEstimate = estimate.outputTokens;
      lease.openEntry(key.reservations);
    }
    const refused = reserve(this.counters, key, this.clock.at(nowSec), nowSec, estimate, lease);
    if (refused !== null) {
      lease.abandon();
      return refused;
    }
    return lease;
  }
}
