// The answers the HTTP edge gives before a request reaches the pipeline proper: an unknown
// path (404), a known path with the wrong method (405 + Allow), a body in a content-encoding
// the gateway does not decode (415 + Accept-Encoding), and a request that arrives while the
// worker drains or sheds load (503). Each in the route's protocol shape when the route has one, else
// OpenAI's (no protocol can be known).
import { CODECS } from '../../shared/protocols/index.js';
import type { Codec, EncodedError } from '../../shared/protocols/codec.js';
import type { ErrorKind } from '../../shared/errors.js';
import { ROUTES } from '../routes.js';
import type { Runtime } from '../runtime.js';
import type { ClientResponse } from './client.js';
import { routeCodec } from './handle.js';

/** A path echoed in a message: bounded, so that a huge URL does not make a huge error. */
function shownPath(path: string): string {
  return path.length > 200 ? `${path.slice(0, 200)}...` : path;
}

function respondWith(client: ClientResponse, codec: Codec, kind: ErrorKind, message: string, extra: Record<string, string>, retryAfterSecs?: number): void {
  if (client.aborted) return;
  const e = codec.encodeError(kind, message, retryAfterSecs);
  client.respond(e.status, { ...e.headers, ...extra }, e.body);
}

export function handleRouteNotFound(client: ClientResponse, method: string, path: string): void {
  respondWith(client, CODECS.openai, 'route_not_found', `no route for ${method.toUpperCase()} ${shownPath(path)}`, {});
}

export function handleMethodNotAllowed(client: ClientResponse, runtime: Runtime, routeIndex: number, method: string, path: string, allow: string): void {
  const codec = routeIndex >= 0 ? routeCodec(ROUTES[routeIndex]!, runtime, []) : CODECS.openai;
  respondWith(client, codec, 'method_not_allowed', `${method.toUpperCase()} is not allowed on ${shownPath(path)}; use ${allow}`, { allow });
}

export function handleUnsupportedEncoding(client: ClientResponse, runtime: Runtime, routeIndex: number, params: string[], encoding: string): void {
  const codec = routeCodec(ROUTES[routeIndex]!, runtime, params);
  respondWith(client, codec, 'unsupported_media_type',
    `content-encoding "${encoding.slice(0, 64)}" is not supported; send the body uncompressed (identity)`, { 'accept-encoding': 'identity' });
}

/** A shed answer per codec, encoded once: shedding must cost less than serving. */
const SHED_ANSWERS = new Map<Codec, EncodedError>();

/** Over the worker's in-flight limit: shed at once, in the caller's protocol (issue 15). */
export function handleShed(client: ClientResponse, runtime: Runtime, routeIndex: number, params: string[], retryAfterSecs: number): void {
  if (client.aborted) return;
  const codec = routeCodec(ROUTES[routeIndex]!, runtime, params);
  let e = SHED_ANSWERS.get(codec);
  if (e === undefined) {
    e = codec.encodeError('exhausted', 'the gateway is over its in-flight limit (shedding load); retry shortly', retryAfterSecs);
    SHED_ANSWERS.set(codec, e);
  }
  client.respond(e.status, e.headers, e.body);
}

export function handleDraining(client: ClientResponse, runtime: Runtime, routeIndex: number, params: string[]): void {
  const codec = routeCodec(ROUTES[routeIndex]!, runtime, params);
  respondWith(client, codec, 'exhausted', 'the gateway is shutting down; retry on another instance', {}, 1);
}
