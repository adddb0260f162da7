// GET /keys/{id}/usage: a key's counters in its current budget window, read from shared
// memory (every worker counts there), and the headroom left under its tightest RPM/TPM cap.
import { budgetWindowKind, windowStartSec, windowTag, WINDOW_MINUTE } from '../../shared/governance/windows.js';
import { cardRates, type CardRates } from '../../shared/governance/card-rates.js';
import { keySpend } from '../../shared/governance/spend.js';
import { GOV_KEY_BUDGET_REQUESTS, GOV_KEY_BUDGET_TOKENS, GOV_KEY_MINUTE_REQUESTS, GOV_KEY_MINUTE_TOKENS } from '../../shared/sab/index.js';
import { MICROS_PER_CENT } from './worker-records.js';
import type { GovernanceService } from './service.js';
import type { KeyRecord } from '../store/records.js';

/** The price of group `name`'s budget now: the nearest group from it up that sets a fee or a card. */
export function chainPrice(gov: GovernanceService, name: string | null): { fee: number; rates: CardRates | null } {
  let at = name;
  for (let depth = 0; at !== null && depth < 16; depth++) {
    const g = gov.groups.get(at);
    if (g === undefined) break;
    if (g.per_request_fee_micros > 0 || g.rate_card.length > 0) return { fee: g.per_request_fee_micros, rates: cardRates(g.rate_card) };
    at = g.parent;
  }
  return { fee: 0, rates: null };
}

export function keyMeteringView(gov: GovernanceService, key: KeyRecord): Record<string, unknown> {
  const nowSec = Math.floor(Date.now() / 1000);
  const slot = gov.keySlots.get(key.id);
  if (slot === undefined) {
    return { id: key.id, budget_period: null, window_start: null, as_of: nowSec, spend_cents: 0, tokens: 0, requests: 0, rate_headroom: null };
  }
  const g = gov.shared.governance;
  const kind = budgetWindowKind(key.budget_period);
  const tag = windowTag(kind, nowSec);
  const minute = windowTag(WINDOW_MINUTE, nowSec);
  let headroom: number | null = null;
  const consider = (used: number, cap: number | null): void => {
    if (cap === null) return;
    const left = cap === 0 ? 0 : Math.max(0, 1 - used / cap);
    headroom = headroom === null ? left : Math.min(headroom, left);
  };
  consider(g.read(g.keyIndex(slot, GOV_KEY_MINUTE_REQUESTS), minute), key.rpm_limit);
  consider(g.read(g.keyIndex(slot, GOV_KEY_MINUTE_TOKENS), minute), key.tpm_limit);
  const price = chainPrice(gov, key.group);
  return {
    id: key.id,
    budget_period: key.budget_period,
    window_start: windowStartSec(kind, nowSec),
    as_of: nowSec,
    spend_cents: Math.floor(keySpend(g, slot, tag, price.fee, price.rates) / MICROS_PER_CENT),
    tokens: g.read(g.keyIndex(slot, GOV_KEY_BUDGET_TOKENS), tag),
    requests: g.read(g.keyIndex(slot, GOV_KEY_BUDGET_REQUESTS), tag),
    rate_headroom: headroom,
  };
}
