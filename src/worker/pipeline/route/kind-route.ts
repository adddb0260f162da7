// The route step of the kinds beside chat (token counts, embeddings): the content type, and the
// model a path carries -- Gemini's `{model}:{action}` (the action already chose the route,
// routes.ts routeOfRequest), Bedrock's `{modelId}`. Like chat's route step, no name is looked up.
import { Disposition } from '../../../shared/routing/attempt-outcome.js';
import type { RequestContext } from '../context.js';
import { errorAnswer } from '../end/answer.js';
import { end } from '../end/end.js';
import { acceptableContentType } from './route.js';

export function kindRouteStep(ctx: RequestContext): boolean {
  const route = ctx.route!;
  const req = ctx.req;
  if (!acceptableContentType(route, req.contentType)) {
    end(ctx, Disposition.InvalidRequest, errorAnswer('unsupported_media_type', `content type "${req.contentType}" is not supported; send application/json`));
    return false;
  }
  if (route.modelParam === undefined) return true;
  const segment = req.params[route.modelParam]!;
  const model = route.actionInPath === true ? segment.slice(0, segment.lastIndexOf(':')) : segment;
  ctx.routeInfo = { pathModel: decodeURIComponent(model), pathStream: false };
  return true;
}
