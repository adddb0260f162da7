// GET /groups/{name}/usage: each of a group's limits with what its current window has used and
// holds reserved, read from shared memory (every worker counts there), as the console draws
// its bars. Spend is priced with the one pricing rule (shared/governance/spend.ts).
import { groupSpend } from '../../shared/governance/spend.js';
import { groupWindowKind, windowStartSec, windowTag, WINDOW_TOTAL } from '../../shared/governance/windows.js';
import { GOV_BUDGET_RESERVED, GOV_REQUESTS, GOV_TOKENS, GOV_TOKENS_RESERVED } from '../../shared/sab/index.js';
import { chainPrice } from './key-metering.js';
import type { GovernanceService } from './service.js';
import type { GroupRecord } from '../store/records.js';

export function groupMeteringView(gov: GovernanceService, group: GroupRecord): Record<string, unknown> {
  const nowSec = Math.floor(Date.now() / 1000);
  const c = gov.shared.governance;
  const slot = gov.registry.groupSlot(group.name);
  const price = chainPrice(gov, group.name);
  const limits = group.limits.map((limit) => {
    const w = groupWindowKind(limit.window);
    const tag = windowTag(w, nowSec);
    let used = 0;
    let reserved = 0;
    switch (limit.metric) {
      case 'requests':
        used = c.read(c.groupIndex(slot, w, GOV_REQUESTS), tag);
        break;
      case 'tokens':
        used = c.read(c.groupIndex(slot, w, GOV_TOKENS), tag);
        reserved = c.read(c.groupIndex(slot, w, GOV_TOKENS_RESERVED), tag);
        break;
      case 'budget':
        used = groupSpend(c, slot, w, tag, price.fee, price.rates);
        reserved = c.read(c.groupIndex(slot, w, GOV_BUDGET_RESERVED), tag);
        break;
      case 'concurrent':
        used = c.inflight(slot);
        break;
    }
    const windowStart = limit.metric === 'concurrent' || w === WINDOW_TOTAL ? null : windowStartSec(w, nowSec);
    return { metric: limit.metric, window: limit.window, max: limit.max, used, reserved, window_start: windowStart };
  });
  return { name: group.name, as_of: nowSec, limits };
}
