// The listing kinds' steps: the model-listing calls (GET /v1/models, /v1beta/models, /api/tags,
// ...) and Ollama's POST /api/show, answered by the gateway from its config in the caller's
// vendor shape, showing only what the caller's key may use. Authenticated like a chat request.
import type { ProtocolName } from '../../../shared/model/types.js';
import { CODECS } from '../../../shared/protocols/index.js';
import { isJsonObject } from '../../../shared/protocols/framing/json-field.js';
import { Disposition } from '../../../shared/routing/attempt-outcome.js';
import { findVisible, visibleModels, type ListedModel } from '../../listing/catalog.js';
import { LISTING_ROUTES, v1Vendor, type ListingKind } from '../../listing/routes.js';
import {
  anthropicList,
  anthropicModel,
  geminiList,
  geminiModel,
  ollamaShow,
  ollamaTags,
  ollamaVersion,
  openaiList,
  openaiModel,
} from '../../listing/shapes.js';
import type { IngressRequest } from '../client.js';
import type { RequestContext } from '../context.js';
import { errorAnswer, wholeAnswer } from '../end/answer.js';
import { end } from '../end/end.js';

const JSON_HEADERS: Readonly<Record<string, string>> = { 'content-type': 'application/json' };

/** The vendor whose shape a listing path answers in (a shared path: by the caller's headers). */
function listingVendor(kind: ListingKind, req: IngressRequest): ProtocolName {
  if (kind === 'v1-models' || kind === 'v1-model') {
    return v1Vendor({
      authorization: req.authorization,
      xApiKey: req.xApiKey,
      xGoogApiKey: req.xGoogApiKey,
      anthropicVersion: req.callerHeaders['anthropic-version'] ?? '',
      query: req.query,
    });
  }
  if (kind === 'gemini-models' || kind === 'gemini-model') return 'gemini';
  return 'ollama';
}

/** A GET listing: Ollama's version is answered to anyone (clients probe it before they have a model). */
export function listingRouteStep(ctx: RequestContext): boolean {
  const req = ctx.req;
  const kind = LISTING_ROUTES[req.routeIndex]!.kind;
  if (kind === 'ollama-version') {
    end(ctx, Disposition.Ok, wholeAnswer(200, JSON_HEADERS, ollamaVersion()));
    return false;
  }
  const model = req.params.length > 0 ? decodeURIComponent(req.params[0]!) : '';
  // `GET /v1beta/models/{model}:{action}` is the generate route asked with the wrong method.
  if (kind === 'gemini-model' && model.includes(':')) {
    end(
      ctx,
      Disposition.InvalidRequest,
      errorAnswer('method_not_allowed', `GET is not allowed on /v1beta/models/${req.params[0]!}; use POST`, undefined, { allow: 'POST' }),
    );
    return false;
  }
  ctx.model = model;
  return true;
}

export function listingAnswerStep(ctx: RequestContext): boolean {
  const kind = LISTING_ROUTES[ctx.req.routeIndex]!.kind;
  answer(ctx, kind, listingVendor(kind, ctx.req));
  return false;
}

/** Ollama's POST /api/show: `{"model": ...}` (older clients send `name`). */
export function showStep(ctx: RequestContext): boolean {
  const b = isJsonObject(ctx.head) ? ctx.head : {};
  const model = typeof b.model === 'string' ? b.model : typeof b.name === 'string' ? b.name : '';
  if (model === '') {
    end(ctx, Disposition.InvalidRequest, errorAnswer('invalid_request', 'model is required'));
    return false;
  }
  ctx.model = model;
  answer(ctx, 'ollama-show', 'ollama');
  return false;
}

function answer(ctx: RequestContext, kind: ListingKind | 'ollama-show', vendor: ProtocolName): void {
  const models = visibleModels(ctx.runtime, ctx.key);
  let single: ListedModel | undefined;
  if (ctx.model !== '') {
    single = findVisible(models, ctx.model);
    // An invisible model is answered as an unknown one: a listing does not reveal what a key may not use.
    if (single === undefined) {
      end(ctx, Disposition.InvalidRequest, errorAnswer('model_not_found', `no pool or model named "${ctx.model}"`));
      return;
    }
  }
  end(ctx, Disposition.Ok, wholeAnswer(200, JSON_HEADERS, bodyOf(kind, vendor, ctx.req.query, models, single)));
}

/** How each vendor writes the shared `/v1/models` listing: the list, and one model. */
const V1_SHAPES: Readonly<Partial<Record<ProtocolName, { list(models: ListedModel[], query: URLSearchParams): string; one(model: ListedModel): unknown }>>> = {
  anthropic: { list: anthropicList, one: anthropicModel },
  gemini: { list: geminiList, one: geminiModel },
};
const OPENAI_V1 = { list: (models: ListedModel[]) => openaiList(models), one: openaiModel };

function bodyOf(kind: ListingKind | 'ollama-show', vendor: ProtocolName, query: string, models: ListedModel[], single: ListedModel | undefined): string {
  switch (kind) {
    case 'ollama-show':
      return ollamaShow(single!);
    case 'ollama-tags':
      return ollamaTags(models);
    case 'gemini-models':
      return geminiList(models, new URLSearchParams(query));
    case 'gemini-model':
      return JSON.stringify(geminiModel(single!));
    default: {
      const shape = V1_SHAPES[vendor] ?? OPENAI_V1;
      return single !== undefined ? JSON.stringify(shape.one(single)) : shape.list(models, new URLSearchParams(query));
    }
  }
}

/** The caller's codec of a GET listing (its vendor's). */
export function listingCodec(req: IngressRequest) {
  return CODECS[listingVendor(LISTING_ROUTES[req.routeIndex]!.kind, req)];
}
