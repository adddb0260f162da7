// The admit step: a lease for the request, or the refusal that answers it (see admission.ts).
import type { SharedState } from '../../shared/sab/index.js';
import type { AdmissionLease } from '../pipeline/admission-lease.js';
import type { Metering } from '../metering.js';
import { checkAccess, reserve } from './admission.js';
import { WindowClock } from '../../shared/governance/window-clock.js';
import type { AdmissionKey } from './key-table.js';
import { GovernanceLease, OPEN_LEASE } from './lease.js';
import type { Refusal } from './refusal.js';

export class Admission {
  private readonly clock = new WindowClock();

  constructor(
    private readonly shared: SharedState,
    private readonly metering: Metering,
  ) {}

  /** `key` null: the open front door. `target`: the pool (or, on a direct route, lane) name.
   * `nowSec`: the request's clock reading (epoch seconds). */
  admit(key: AdmissionKey | null, target: string, governanceEnabled: boolean, nowSec: number): AdmissionLease | Refusal {
    if (key === null) return OPEN_LEASE;
    const denied = checkAccess(key, target);
    if (denied !== null) return denied;
    // Governance off: keys still authenticate and pools still apply; nothing is counted or metered.
    if (!governanceEnabled) return new GovernanceLease(key, null, null, this.clock);
    const refused = reserve(this.shared.governance, key, this.clock.at(nowSec), nowSec);
    if (refused !== null) return refused;
    return new GovernanceLease(key, this.shared.governance, this.metering, this.clock);
  }
}
