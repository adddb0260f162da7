// POST /restart: drain in-flight requests through the graceful-shutdown path and exit 0, for
// the process supervisor to start the gateway again. Without a detected supervisor nothing
// would start it again, so the call is refused (409 conflict) unless `confirm: true`.
import { Type, type Static } from '@sinclair/typebox';
import type { AdminContext } from './context.js';
import { AdminError, type AdminRoute } from './route.js';

const RestartBody = Type.Object(
  { confirm: Type.Optional(Type.Boolean({ description: 'Exit even when no supervisor is detected.' })) },
  { additionalProperties: false, title: 'RestartBody' },
);
const RestartView = Type.Object(
  {
    restarting: Type.Boolean(),
    supervisor: Type.Union([Type.String(), Type.Null()], { description: '`systemd`, `kubernetes`, `GATEWAY_SUPERVISED`, or null when none was detected.' }),
    note: Type.String(),
  },
  { title: 'RestartView' },
);

/** systemd sets INVOCATION_ID (and NOTIFY_SOCKET for Type=notify); Kubernetes sets KUBERNETES_SERVICE_HOST. */
function detectSupervisor(env: NodeJS.ProcessEnv): string | null {
  if ((env.INVOCATION_ID ?? '') !== '' || (env.NOTIFY_SOCKET ?? '') !== '') return 'systemd';
  if ((env.KUBERNETES_SERVICE_HOST ?? '') !== '') return 'kubernetes';
  if (env.GATEWAY_SUPERVISED === '1') return 'GATEWAY_SUPERVISED';
  return null;
}

export const restartRoutes: AdminRoute<AdminContext>[] = [
  {
    method: 'POST',
    path: '/restart',
    operationId: 'restart',
    summary: 'Drain in-flight requests, then exit 0 for the supervisor to restart the process',
    tag: 'restart',
    body: RestartBody,
    responses: { 200: RestartView },
    audit: { action: 'server.restart', resource: () => 'process' },
    handler(call, ctx) {
      const supervisor = detectSupervisor(ctx.lifecycle.env);
      const confirm = (call.body as Static<typeof RestartBody> | undefined)?.confirm === true;
      if (supervisor === null && !confirm) {
        throw new AdminError(
          409,
          'conflict',
          'no process supervisor detected (systemd, Kubernetes or GATEWAY_SUPERVISED=1): nothing would start the gateway again; send {"confirm": true} to exit anyway',
        );
      }
      const note =
        supervisor === null
          ? 'draining, then exiting 0; no supervisor was detected, so nothing will start it again'
          : `draining, then exiting 0 for ${supervisor} to start it again`;
      return { status: 200, body: { restarting: true, supervisor, note }, afterSend: () => ctx.lifecycle.restart() };
    },
  },
];
