// GET /usage?window=: one UTC-day bucket of metering, priced at read time.
import type { AdminContext } from './context.js';
import { AdminError, type AdminRoute } from './route.js';
import { UsageQuery, UsageView } from '../governance/schemas.js';
import { buildUsageView, usageDay } from '../usage/usage-view.js';
import type { RateEntry } from '../../shared/governance/pricing.js';

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
      // Aggregations are empty when governance is disabled (spec).
      const rows = gov.enabled() ? [...(await gov.store.keyUsageForDay(day)), ...(gov.ledger?.pendingKeyRows(day) ?? [])] : [];
      const prices = (settings?.prices ?? []) as RateEntry[];
      const view = buildUsageView(day, rows, prices, currency, (id) => gov.keys.get(id)?.name ?? null, nowSec);
      return { status: 200, body: view };
    },
  },
];
