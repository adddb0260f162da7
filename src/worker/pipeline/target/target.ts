// The target step, after authentication: the pool or lane the request names -- a pool by name
// first, then a lane (its default cell), or a direct route's provider lane -- and, now that the
// codec the body is in is final (a direct route speaks its target's protocol), what the body
// asks for (its model, whether it streams).
import { Disposition } from '../../../shared/routing/attempt-outcome.js';
import type { RequestContext } from '../context.js';
import { translatedLast } from '../decode/decode.js';
import { errorAnswer } from '../end/answer.js';
import { end } from '../end/end.js';
import { unroutedCodecOf } from '../route/caller-codec.js';

function notFound(ctx: RequestContext, name: string): false {
  end(ctx, Disposition.InvalidRequest, errorAnswer('model_not_found', `no pool or model named "${name}"`));
  return false;
}

/** Pool by name first, then a lane's default cell (PROTOCOLS.md). False when neither exists. */
function resolveByName(ctx: RequestContext, name: string): boolean {
  const runtime = ctx.runtime;
  const pool = runtime.pools.get(name);
  if (pool !== undefined) {
    ctx.pool = pool;
    return true;
  }
  const lane = runtime.lanesByName.get(name);
  if (lane === undefined) return false;
  ctx.lane = lane;
  return true;
}

export function targetStep(ctx: RequestContext): boolean {
  const route = ctx.route!;
  const params = ctx.req.params;
  if (route.kind === 'direct') {
    const providerName = params[0]!;
    const model = decodeURIComponent(params[1]!);
    const lane = ctx.runtime.directLane(providerName, model);
    if (lane === undefined) {
      // A first segment that names no provider is not a provider: the path is simply unknown,
      // answered in the protocol the path names (`/api/foo` is Ollama's) or the headers do.
      if (ctx.runtime.providersByName.has(providerName))
        end(ctx, Disposition.InvalidRequest, errorAnswer('model_not_found', `provider "${providerName}" has no lane for model "${model}"`));
      else {
        const path = `/${params[0]!}/${params[1]!}`;
        ctx.codec = unroutedCodecOf(ctx.req, 'POST', path);
        end(ctx, Disposition.InvalidRequest, errorAnswer('route_not_found', `no route for POST /${providerName}/${model}`));
      }
      return false;
    }
    ctx.lane = lane;
    ctx.codec = lane.provider.codec;
    ctx.routeInfo.pathModel = lane.compiled.upstreamModel;
  } else if (route.kind === 'direct-model') {
    const name = decodeURIComponent(params[0]!);
    if (!resolveByName(ctx, name)) return notFound(ctx, name);
    ctx.codec = ctx.pool !== null ? (ctx.pool.members[0]?.provider.codec ?? ctx.codec) : ctx.lane!.provider.codec;
    ctx.routeInfo.pathModel = name;
  } else {
    const model = ctx.codec.requestedModel(ctx.head, ctx.routeInfo);
    if (model === undefined || model === '') {
      end(ctx, Disposition.InvalidRequest, errorAnswer('invalid_request', 'the request names no model'));
      return false;
    }
    if (!resolveByName(ctx, model)) return notFound(ctx, model);
    const first = ctx.pool !== null ? ctx.pool.members[0] : ctx.lane;
    translatedLast[ctx.req.routeIndex] = first !== undefined && first!.provider.codec !== ctx.codec ? 1 : 0;
  }
  const codec = ctx.codec;
  ctx.model = ctx.routeInfo.pathModel ?? codec.requestedModel(ctx.head, ctx.routeInfo) ?? '';
  ctx.stream = codec.requestedStream(ctx.head, ctx.routeInfo);
  ctx.wantStreamUsage = codec.streamUsageRequested(ctx.head);
  return true;
}
