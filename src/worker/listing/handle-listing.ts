// Answers the model-listing calls: who is calling (the same authenticate step as a chat
// request, refusing in the caller's protocol), what that key may use, in the vendor's shape.
import type { ProtocolName } from '../../shared/model/types.js';
import { CODECS } from '../../shared/protocols/index.js';
import { isJsonObject } from '../../shared/protocols/framing/json-field.js';
import type { AuthResult } from '../auth/authenticate.js';
import { Refusal } from '../governance/refusal.js';
import type { ClientResponse, IngressRequest } from '../pipeline/client.js';
import type { PipelineDeps } from '../pipeline/handle.js';
import { respondError } from '../pipeline/respond-error.js';
import { handleMethodNotAllowed } from '../pipeline/edge-errors.js';
import { ROUTES } from '../routes.js';
import type { Runtime } from '../runtime.js';
import { findVisible, visibleModels, type ListedModel } from './catalog.js';
import { LISTING_ROUTES, v1Vendor, type ListingKind } from './routes.js';
import {
  anthropicList, anthropicModel, geminiList, geminiModel, ollamaShow, ollamaTags, ollamaVersion, openaiList, openaiModel,
} from './shapes.js';

const JSON_HEADERS: Readonly<Record<string, string>> = { 'content-type': 'application/json' };
const GEMINI_ROUTE_INDEX = ROUTES.findIndex((r) => r.protocol === 'gemini');

interface ListingCall {
  kind: ListingKind | 'ollama-show';
  vendor: ProtocolName;
  /** The model a single-model call names (path or body), else ''. */
  model: string;
  query: string;
}

function vendorOf(kind: ListingKind, req: IngressRequest): ProtocolName {
  if (kind === 'v1-models' || kind === 'v1-model') return v1Vendor(req);
  if (kind === 'gemini-models' || kind === 'gemini-model') return 'gemini';
  return 'ollama';
}

/** A GET listing route (req.routeIndex indexes LISTING_ROUTES). */
export function handleListing(deps: PipelineDeps, req: IngressRequest, client: ClientResponse): void {
  const kind = LISTING_ROUTES[req.routeIndex]!.kind;
  // Ollama answers its version to anyone (clients probe it before they have a model).
  if (kind === 'ollama-version') {
    client.respond(200, JSON_HEADERS, ollamaVersion());
    return;
  }
  const model = req.params.length > 0 ? decodeURIComponent(req.params[0]!) : '';
  // `GET /v1beta/models/{model}:{action}` is the generate route asked with the wrong method.
  if (kind === 'gemini-model' && model.includes(':')) {
    handleMethodNotAllowed(client, deps.runtime(), GEMINI_ROUTE_INDEX, 'GET', `/v1beta/models/${req.params[0]!}`, 'POST');
    return;
  }
  answer(deps, req, client, { kind, vendor: vendorOf(kind, req), model, query: req.query });
}

/** Ollama's POST /api/show: `{"model": ...}` (older clients send `name`). */
export function handleShow(deps: PipelineDeps, req: IngressRequest, body: unknown, client: ClientResponse): void {
  const b = isJsonObject(body) ? body : {};
  const model = typeof b.model === 'string' ? b.model : typeof b.name === 'string' ? b.name : '';
  if (model === '') {
    respondError(client, CODECS.ollama, 'invalid_request', 'model is required');
    return;
  }
  answer(deps, req, client, { kind: 'ollama-show', vendor: 'ollama', model, query: '' });
}

function answer(deps: PipelineDeps, req: IngressRequest, client: ClientResponse, call: ListingCall): void {
  const runtime = deps.runtime();
  const auth = deps.auth.authenticate(req, runtime.config, Math.floor(Date.now() / 1000));
  if (auth instanceof Promise) {
    auth.then(
      (result) => render(runtime, client, call, result),
      () => respondError(client, CODECS[call.vendor], 'internal', 'the key could not be verified'),
    );
    return;
  }
  render(runtime, client, call, auth);
}

function render(runtime: Runtime, client: ClientResponse, call: ListingCall, auth: AuthResult): void {
  const codec = CODECS[call.vendor];
  if (auth instanceof Refusal) {
    respondError(client, codec, auth.kind, auth.message, auth.retryAfterSecs);
    return;
  }
  const models = visibleModels(runtime, auth);
  let single: ListedModel | undefined;
  if (call.model !== '') {
    single = findVisible(models, call.model);
    // An invisible model is answered as an unknown one: a listing does not reveal what a key may not use.
    if (single === undefined) {
      respondError(client, codec, 'model_not_found', `no pool or model named "${call.model}"`);
      return;
    }
  }
  client.respond(200, JSON_HEADERS, bodyOf(call, models, single));
}

function bodyOf(call: ListingCall, models: ListedModel[], single: ListedModel | undefined): string {
  switch (call.kind) {
    case 'ollama-show':
      return ollamaShow(single!);
    case 'ollama-tags':
      return ollamaTags(models);
    case 'gemini-models':
      return geminiList(models, new URLSearchParams(call.query));
    case 'gemini-model':
      return JSON.stringify(geminiModel(single!));
    default:
      break;
  }
  const query = new URLSearchParams(call.query);
  if (call.vendor === 'anthropic') return single !== undefined ? JSON.stringify(anthropicModel(single)) : anthropicList(models, query);
  if (call.vendor === 'gemini') return single !== undefined ? JSON.stringify(geminiModel(single)) : geminiList(models, query);
  return single !== undefined ? JSON.stringify(openaiModel(single)) : openaiList(models);
}
