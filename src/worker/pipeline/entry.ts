// Where a data-plane request enters the pipeline: the ingress hands over the copied request
// (headers, path; the body still arriving) and the caller's connection, and gets back who is
// told about the body. The request's context is made here and its kind's steps start at once.
import { CODECS } from '../../shared/protocols/index.js';
import { ROUTES, routeOfRequest, type Route } from '../routes.js';
import type { BodySink, ClientResponse, IngressRequest } from './client.js';
import { RequestContext, type PipelineDeps } from './context.js';
import { CHAT, COUNT, EMBEDDINGS, LISTING, RESPONSES, SHOW, STORED_RESPONSE, type RequestKind } from './kinds.js';
import { listingCodec } from './listing/listing.js';
import { callerCodecOf } from './route/caller-codec.js';
import { runSteps } from './steps.js';

/** The kind each route kind runs (a table: the choice is one lookup). */
const KIND_OF_ROUTE: Readonly<Record<Route['kind'], RequestKind>> = {
  protocol: CHAT,
  direct: CHAT,
  'direct-model': CHAT,
  listing: SHOW,
  count: COUNT,
  embeddings: EMBEDDINGS,
  responses: RESPONSES,
};

/** A POST data-plane route (ROUTES[req.routeIndex]; Gemini's model path by its action, routes.ts routeOfRequest). */
export function startRequest(deps: PipelineDeps, req: IngressRequest, client: ClientResponse): BodySink {
  const route = routeOfRequest(ROUTES[req.routeIndex]!, req.params);
  const ctx = new RequestContext(deps, req, client, KIND_OF_ROUTE[route.kind], route.codec ?? callerCodecOf(req));
  ctx.route = route;
  runSteps(ctx);
  return ctx;
}

/** A GET model-listing route (LISTING_ROUTES[req.routeIndex]): no body. */
export function startListing(deps: PipelineDeps, req: IngressRequest, client: ClientResponse): void {
  const ctx = new RequestContext(deps, req, client, LISTING, listingCodec(req) ?? CODECS.openai);
  runSteps(ctx);
}

/** A stored-response route (STORED_RESPONSE_ROUTES[req.routeIndex]: GET or DELETE, no body). */
export function startStoredResponse(deps: PipelineDeps, req: IngressRequest, client: ClientResponse): void {
  const ctx = new RequestContext(deps, req, client, STORED_RESPONSE, CODECS.responses);
  runSteps(ctx);
}
