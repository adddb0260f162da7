// GET /providers: each provider of the catalog with the number of lanes routed through it,
// paged by name. No credentials.
import { Type } from '@sinclair/typebox';
import type { AdminContext } from './context.js';
import type { AdminRoute } from './route.js';
import { byName } from './pools.js';
import { PageOf, PageQuery, pageBySortKey } from './paging.js';

const ProviderView = Type.Object({ provider: Type.String(), model_count: Type.Integer({ minimum: 0 }) });

export const providerRoutes: AdminRoute<AdminContext>[] = [
  {
    method: 'GET',
    path: '/providers',
    operationId: 'listProviders',
    summary: 'The providers and how many model lanes each serves (paged, by name)',
    tag: 'providers',
    query: PageQuery,
    responses: { 200: PageOf(ProviderView, 'ProviderPage') },
    handler(call, ctx) {
      const c = ctx.config.compiled;
      const counts = c.providers.map(() => 0);
      for (const lane of c.lanes) counts[lane.provider]!++;
      const providers = c.providers.map((p, i) => ({ provider: p.name, model_count: counts[i]! }));
      return {
        status: 200,
        body: pageBySortKey(
          byName(providers, (p) => p.provider),
          (p) => p.provider,
          call.query,
        ),
      };
    },
  },
];
