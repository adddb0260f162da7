// GET /usage?window=: one UTC-day bucket of metering, priced at read time.
import type { AdminContext } from './context.js';
import { AdminError, JsonText, type AdminRoute } from './route.js';
import { UsageQuery, UsageView } from '../governance/schemas.js';
import { BY_KEY_MAX, usageDay } from '../usage/usage-view.js';
import { UsageViewCache } from '../usage/usage-view-cache.js';
import type { KeyUsageSummary } from '../usage/usage-summary.js';
import type { RateEntry } from '../../shared/governance/pricing.js';

// One per process: the last answer, reused while the summary it was built from is the same object.
const views = new UsageViewCache();

export const usageRoutes: AdminRoute<AdminContext>[] = [
  {
    method: 'GET',
    path: '/usage',
    operationId: 'getUsage',
    summary: 'Metering of one UTC day: total, by model, top 1000 keys by spend',
    tag: 'usage',
    query: UsageQuery,
    responses: { 200: UsageView },
    async handler(call, ctx) {
      const nowSec = Math.floor(Date.now() / 1000);
      const day = usageDay(call.query.get('window'), nowSec);
      if (day === null) throw new AdminError(400, 'invalid_request', 'window must be epoch seconds of a UTC day');
      const gov = ctx.governance;
      const settings = ctx.config.loaded.config?.governance;
      const currency = settings?.currency ?? 'USD';
      const prices = (settings?.prices ?? []) as RateEntry[];
      // Aggregations are empty when governance is disabled (spec).
      let summary: KeyUsageSummary = { byModel: [], topKeys: [], truncated: false };
      if (gov.enabled()) {
        // What this node metered but has not flushed yet goes to the store first (a flush cut:
        // with the counters of the same requests), so the store aggregates everything (a failed
        // flush keeps its rows for the next one, and this read shows the stored part).
        await gov.snapshots.save();
        summary = await gov.store.keyUsageSummary(day, prices, BY_KEY_MAX);
      }
      return { status: 200, body: new JsonText(views.text(day, summary, currency, (id) => gov.keys.get(id)?.name ?? null, nowSec)) };
    },
  },
];
