// The route step: what the path and the headers say before anything is read of the body -- the
// content type the route takes, and the model and stream flag a path carries (gemini
// `{model}:{action}`, bedrock `{modelId}`). Nothing here looks a name up, so nothing answered
// before authentication tells a known pool, model or provider from an unknown one.
import { Disposition } from '../../../shared/routing/attempt-outcome.js';
import type { RouteDef } from '../../routes.js';
import type { RequestContext } from '../context.js';
import { errorAnswer } from '../end/answer.js';
import { end } from '../end/end.js';

/**
 * JSON routes accept a JSON content type, or none (many clients omit it); a codec may take any
 * (Codec.acceptsAnyContentType).
 */
function acceptableContentType(route: RouteDef, contentType: string): boolean {
  if (contentType === '' || route.codec?.acceptsAnyContentType === true) return true;
  const semi = contentType.indexOf(';');
  const mediaType = (semi === -1 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}

/** The request's content type is one its route takes; else the request ends with 415. */
export function contentTypeAccepted(ctx: RequestContext): boolean {
  const contentType = ctx.req.contentType;
  if (acceptableContentType(ctx.route!, contentType)) return true;
  end(ctx, Disposition.InvalidRequest, errorAnswer('unsupported_media_type', `content type "${contentType}" is not supported; send application/json`));
  return false;
}

export function routeStep(ctx: RequestContext): boolean {
  if (!contentTypeAccepted(ctx)) return false;
  const route = ctx.route!;
  if (route.modelParam === undefined) return true;
  const segment = ctx.req.params[route.modelParam]!;
  const routeOf = ctx.codec.routeInfoOf;
  if (routeOf === undefined) {
    ctx.routeInfo = { pathModel: decodeURIComponent(segment), pathStream: route.pathStream };
    return true;
  }
  const info = routeOf(segment);
  if (info === undefined) {
    end(ctx, Disposition.InvalidRequest, errorAnswer('route_not_found', `unknown method in "${segment}"`));
    return false;
  }
  ctx.routeInfo = info;
  return true;
}
