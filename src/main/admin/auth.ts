// GET /auth: the data plane's ingress auth chain. (POST /auth/cache/flush is governance's.)
// GET /whoami: the caller's own admin principal and scope (the console hides every mutation
// control from a read-only principal).
import { Type } from '@sinclair/typebox';
import type { AdminContext } from './context.js';
import type { AdminRoute } from './route.js';
import { AuthView, authView } from './config-views.js';

const PrincipalView = Type.Object(
  {
    id: Type.String({ description: '`admin` for the operator token, `anonymous` for the open posture, `idp:<provider>:user:<sub>` for a sign-in.' }),
    scope: Type.Union([Type.Literal('read-only'), Type.Literal('full')]),
  },
  { title: 'PrincipalView' },
);

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
  {
    method: 'GET',
    path: '/whoami',
    operationId: 'getWhoami',
    summary: 'The calling principal and its admin scope',
    tag: 'auth',
    responses: { 200: PrincipalView },
    handler: (call) => ({ status: 200, body: { id: call.principal.id, scope: call.principal.scope } }),
  },
];
