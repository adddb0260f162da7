// The route step of the kinds beside chat (token counts, embeddings): the content type, and the
// model a path carries -- Gemini's `{model}:{action}` (the action already chose the route,
// routes.ts routeOfRequest), Bedrock's `{modelId}`. Like chat's route step, no name is looked up.
import type { RequestContext } from '../context.js';
import { contentTypeAccepted } from './route.js';

export function kindRouteStep(ctx: RequestContext): boolean {
  if (!contentTypeAccepted(ctx)) return false;
  const route = ctx.route!;
  if (route.modelParam === undefined) return true;
  const segment = ctx.req.params[route.modelParam]!;
  const model = route.actionInPath === true ? segment.slice(0, segment.lastIndexOf(':')) : segment;
  ctx.routeInfo = { pathModel: decodeURIComponent(model), pathStream: false };
  return true;
}
