// GET /models: the model lanes (config key and provider), paged by lane name. No credentials.
import { Type } from '@sinclair/typebox';
import type { AdminContext } from './context.js';
import type { AdminRoute } from './route.js';
import { byName } from './pools.js';
import { PageOf, PageQuery, pageBySortKey } from './paging.js';

const ModelView = Type.Object({ model: Type.String(), provider: Type.String() });

export const modelRoutes: AdminRoute<AdminContext>[] = [
  {
    method: 'GET',
    path: '/models',
    operationId: 'listModels',
    summary: 'The model lanes and their providers (paged, by name)',
    tag: 'models',
    query: PageQuery,
    responses: { 200: PageOf(ModelView, 'ModelPage') },
    handler(call, ctx) {
      const c = ctx.config.compiled;
      const models = c.lanes.map((lane) => ({ model: lane.name, provider: c.providers[lane.provider]!.name }));
      return {
        status: 200,
        body: pageBySortKey(
          byName(models, (m) => m.model),
          (m) => m.model,
          call.query,
        ),
      };
    },
  },
];
