// GET /auth: the data plane's ingress auth chain. (POST /auth/cache/flush is governance's.)
import type { AdminContext } from './context.js';
import type { AdminRoute } from './route.js';
import { AuthView, authView } from './config-views.js';

export const authRoutes: AdminRoute<AdminContext>[] = [
  {
    method: 'GET',
    path: '/auth',
    operationId: 'getAuth',
    summary: 'The ingress auth chain of the data plane',
    tag: 'auth',
    responses: { 200: AuthView },
    handler: (_call, ctx) => ({ status: 200, body: authView(ctx.config) }),
  },
];
