// The admit step: a lease for the request, or the refusal that answers it -- a disabled key, a
// target outside its allowed_pools, a frozen group (403), a limit of the key or its group chain
// (429 or the quota answer). Governance's own rules are src/worker/governance/admission.ts.
import { Refusal } from '../../governance/refusal.js';
import type { RequestContext } from '../context.js';
import { endRefused } from '../end/refused.js';

export function admitStep(ctx: RequestContext): boolean {
  // The estimate of the request's cost (reserved against token and budget caps) reads the body's
  // bytes and the members decode read (src/shared/governance/cost-estimate.ts).
  const lease = ctx.deps.admission.admit(ctx.key, ctx.pool ?? ctx.lane!, ctx.runtime.config.governance.enabled, ctx.nowSec, ctx.codec, ctx.req.body, ctx.head);
  if (lease instanceof Refusal) return endRefused(ctx, lease);
  ctx.lease = lease;
  return true;
}
