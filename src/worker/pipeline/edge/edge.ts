// The answers the HTTP edge gives before a request reaches its steps: an unknown path (404), a
// known path with the wrong method (405 + Allow), a body in a content-encoding the gateway does
// not decode (415 + Accept-Encoding), a content-length over the cap (413), and a request that
// arrives while the worker drains or sheds load (503). Each is a request of the EDGE kind that
// ends at once, through the same end as every other: counted, tapped, logged.
import type { Codec } from '../../../shared/protocols/codec.js';
import { Disposition } from '../../../shared/routing/attempt-outcome.js';
import { ROUTES } from '../../routes.js';
import type { ClientResponse, IngressRequest } from '../client.js';
import { RequestContext, type PipelineDeps } from '../context.js';
import { errorAnswer, wholeAnswer, type Answer } from '../end/answer.js';
import { end } from '../end/end.js';
import { EDGE } from '../kinds.js';
import { callerCodecOf, unroutedCodecOf } from '../route/caller-codec.js';

/** A path echoed in a message: bounded, so that a huge URL does not make a huge error. */
function shownPath(path: string): string {
  return path.length > 200 ? `${path.slice(0, 200)}...` : path;
}

/** The caller's codec: the route's when it has one, else the headers'. */
function codecOf(req: IngressRequest): Codec {
  return (req.routeIndex >= 0 ? ROUTES[req.routeIndex]?.codec : undefined) ?? callerCodecOf(req);
}

function endAtEdge(deps: PipelineDeps, req: IngressRequest, client: ClientResponse, codec: Codec, disposition: Disposition, answer: Answer): void {
  end(new RequestContext(deps, req, client, EDGE, codec), disposition, answer);
}

/** A path the answer is about: the route's codec when the path is a known one, else the protocol the path and headers name. */
function pathCodecOf(req: IngressRequest, method: string, path: string): Codec {
  return (req.routeIndex >= 0 ? ROUTES[req.routeIndex]?.codec : undefined) ?? unroutedCodecOf(req, method, path);
}

/** An answer about the path itself (no route, a method it does not take), in its protocol's shape. */
function refuseAtPath(deps: PipelineDeps, req: IngressRequest, client: ClientResponse, method: string, path: string, answer: Answer): void {
  endAtEdge(deps, req, client, pathCodecOf(req, method, path), Disposition.InvalidRequest, answer);
}

export function answerRouteNotFound(deps: PipelineDeps, req: IngressRequest, client: ClientResponse, method: string, path: string): void {
  refuseAtPath(deps, req, client, method, path, errorAnswer('route_not_found', `no route for ${method.toUpperCase()} ${shownPath(path)}`));
}

export function answerMethodNotAllowed(deps: PipelineDeps, req: IngressRequest, client: ClientResponse, method: string, path: string, allow: string): void {
  const message = `${method.toUpperCase()} is not allowed on ${shownPath(path)}; use ${allow}`;
  refuseAtPath(deps, req, client, method, path, errorAnswer('method_not_allowed', message, undefined, { allow }));
}

/** A request refused on its headers before its body is read (an encoding, a size), in the caller's protocol. */
function refuseAtDoor(deps: PipelineDeps, req: IngressRequest, client: ClientResponse, answer: Answer): void {
  endAtEdge(deps, req, client, codecOf(req), Disposition.InvalidRequest, answer);
}

export function answerUnsupportedEncoding(deps: PipelineDeps, req: IngressRequest, client: ClientResponse, encoding: string): void {
  const message = `content-encoding "${encoding.slice(0, 64)}" is not supported; send the body uncompressed (identity)`;
  refuseAtDoor(deps, req, client, errorAnswer('unsupported_media_type', message, undefined, { 'accept-encoding': 'identity' }));
}

export function answerBodyTooLarge(deps: PipelineDeps, req: IngressRequest, client: ClientResponse): void {
  refuseAtDoor(deps, req, client, errorAnswer('body_too_large', `the request body is larger than ${deps.runtime().config.limits.maxBodyBytes} bytes`));
}

export function answerDraining(deps: PipelineDeps, req: IngressRequest, client: ClientResponse): void {
  endAtEdge(deps, req, client, codecOf(req), Disposition.Shed, errorAnswer('exhausted', 'the gateway is shutting down; retry on another instance', 1));
}

/** A shed answer per codec, encoded once: shedding must cost less than serving. */
const SHED_ANSWERS = new Map<Codec, Answer>();

/** Over the worker's in-flight limit: shed at once, in the caller's protocol. */
export function answerShed(deps: PipelineDeps, req: IngressRequest, client: ClientResponse, retryAfterSecs: number): void {
  const codec = codecOf(req);
  let answer = SHED_ANSWERS.get(codec);
  if (answer === undefined) {
    const e = codec.encodeError('exhausted', 'the gateway is over its in-flight limit (shedding load); retry shortly', retryAfterSecs);
    answer = wholeAnswer(e.status, e.headers, e.body);
    SHED_ANSWERS.set(codec, answer);
  }
  endAtEdge(deps, req, client, codec, Disposition.Shed, answer);
}
