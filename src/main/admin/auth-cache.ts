// POST /auth/cache/flush: empty every worker's verified-key cache (CacheFlushView).
import type { AdminContext } from './context.js';
import type { AdminRoute } from './route.js';
import { CacheFlushView } from '../governance/schemas.js';

export const authCacheRoutes: AdminRoute<AdminContext>[] = [
  {
    method: 'POST',
    path: '/auth/cache/flush',
    operationId: 'flushAuthCache',
    summary: "Empty every worker's cache of verified keys",
    tag: 'auth',
    responses: { 200: CacheFlushView },
    audit: { action: 'auth.cache_flush', resource: () => 'auth:cache' },
    async handler(_call, ctx) {
      return { status: 200, body: { flushed: await ctx.governance.flushAuthCaches() } };
    },
  },
];
