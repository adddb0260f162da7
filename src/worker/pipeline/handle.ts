// The request path up to dispatch: route -> content type -> JSON -> target (pool or lane),
// then an Exchange carries it to the upstream and back. Every rejection here is written in
// the ingress protocol's own error shape.
import type { Codec, RouteInfo } from '../../shared/protocols/codec.js';
import { CODECS } from '../../shared/protocols/index.js';
import { translateFastPath } from '../../shared/protocols/fast-path/switch.js';
import {
  NO_STRING_SPAN, TOP_LEVEL_NOT_JSON, TOP_LEVEL_NOT_OBJECT, TOP_LEVEL_UNDECIDED, readTopLevelMembers, type StringSpan,
} from '../../shared/protocols/framing/top-level-members.js';
import { ollamaGenerateCodec } from '../../shared/protocols/ollama/generate.js';
import { membersToRead } from '../../shared/governance/estimators.js';
import { handleShow } from '../listing/handle-listing.js';
import { ROUTES, parseGeminiModelAction, type RouteDef } from '../routes.js';
import type { LaneRuntime, PoolRuntime, Runtime } from '../runtime.js';
import type { Metering } from '../metering.js';
import type { Router } from '../routing/router.js';
import type { SharedState } from '../../shared/sab/index.js';
import type { ClientResponse, IngressRequest } from './client.js';
import { Exchange } from './exchange.js';
import { respondError } from './respond-error.js';
import type { Authenticator, AuthResult } from '../auth/authenticate.js';
import type { Admission } from '../governance/admit.js';
import { Refusal } from '../governance/refusal.js';
import type { ErrorKind } from '../../shared/errors.js';
import { RequestOutcome } from '../../shared/metrics/catalog.js';
import { countRequest } from '../metrics/request-series.js';
import type { RequestLogBuffer } from '../hooks/request-log-buffer.js';
import type { AttemptTimers } from '../upstream/attempt-timers.js';

export interface PipelineDeps {
  runtime(): Runtime;
  router: Router;
  metering: Metering;
  auth: Authenticator;
  admission: Admission;
  shared: SharedState;
  /** The sweep of upstream attempt timeouts (src/worker/upstream/attempt-timers.ts). */
  attemptTimers: AttemptTimers;
  /** Request-log records to the main thread's sinks (used only when logs are configured). */
  requestLogs?: RequestLogBuffer;
}

/**
 * JSON routes accept a JSON content type, or none (many clients omit it). Ollama's routes take
 * any: Ollama ignores the header, and its docs' `curl -d` examples send a form type.
 */
function acceptableContentType(route: RouteDef, contentType: string): boolean {
  if (contentType === '' || route.protocol === 'ollama') return true;
  const semi = contentType.indexOf(';');
  const mediaType = (semi === -1 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}

/** The protocol errors are written in before the target is known. */
export function routeCodec(route: RouteDef, runtime: Runtime, params: string[]): Codec {
  if (route.generate === true) return ollamaGenerateCodec;
  if (route.protocol !== undefined) return CODECS[route.protocol];
  if (route.kind === 'direct') {
    const provider = runtime.providersByName.get(params[0]!);
    if (provider !== undefined) return provider.codec;
  }
  return CODECS.openai;
}

/**
 * Per route (ROUTES index), 1 when its last request went to a lane of another protocol (a
 * pool's first member's): a guess of whether the next one will be translated, which only
 * chooses how its body is read (the same values either way).
 */
const translatedLast = new Uint8Array(ROUTES.length);

interface Target {
  pool: PoolRuntime | null;
  lane: LaneRuntime | null;
  codec: Codec;
}

/** Pool by name first, then a lane's default cell (PROTOCOLS.md). */
function resolveByName(runtime: Runtime, name: string): Target | null {
  const pool = runtime.pools.get(name);
  if (pool !== undefined) {
    const first = pool.members[0];
    return { pool, lane: null, codec: first !== undefined ? first.provider.codec : CODECS.openai };
  }
  const lane = runtime.lanesByName.get(name);
  if (lane !== undefined) return { pool: null, lane, codec: lane.provider.codec };
  return null;
}

export function handleRequest(deps: PipelineDeps, req: IngressRequest, client: ClientResponse): void {
  const runtime = deps.runtime();
  const route = ROUTES[req.routeIndex]!;
  let codec = routeCodec(route, runtime, req.params);

  if (!acceptableContentType(route, req.contentType)) {
    refuse(deps, runtime, req, client, codec, null, 'unsupported_media_type', `content type "${req.contentType}" is not supported; send application/json`);
    return;
  }

  const routeInfo: RouteInfo = {};
  if (route.modelParam !== undefined) {
    const segment = req.params[route.modelParam]!;
    if (route.protocol === 'gemini') {
      const action = parseGeminiModelAction(segment);
      if (action === undefined) {
        refuse(deps, runtime, req, client, codec, null, 'route_not_found', `unknown method in "${segment}"`);
        return;
      }
      routeInfo.pathModel = action.model;
      routeInfo.pathStream = action.stream;
    } else {
      routeInfo.pathModel = decodeURIComponent(segment);
      routeInfo.pathStream = route.pathStream;
    }
  }

  // A named protocol route reads only its codec's requestMembers of the body on the way to a
  // same-protocol lane; the whole body is parsed later, if anything needs it (exchange.ts). A
  // translation needs it at once, so a route whose last request was translated parses it now.
  // GATEWAY_TRANSLATE_FAST_PATH=off (fast-path/switch.ts) parses every body whole.
  const members = route.kind === 'protocol' && translatedLast[req.routeIndex] === 0 && translateFastPath ? membersToRead(codec) : undefined;
  const modelSpan: StringSpan = members !== undefined && members[0] === 'model' ? { start: -1, end: -1 } : NO_STRING_SPAN;
  const read = members !== undefined ? readTopLevelMembers(req.body, members, modelSpan === NO_STRING_SPAN ? null : modelSpan) : TOP_LEVEL_UNDECIDED;
  let body: unknown = read;
  let verdict = typeof read === 'object' ? 0 : read;
  // The body as text, when it was parsed whole here (null: only its members were read).
  let raw: string | null = null;
  if (verdict === TOP_LEVEL_UNDECIDED) {
    raw = req.body.toString('utf8');
    try {
      body = JSON.parse(raw);
      verdict = body !== null && typeof body === 'object' && !Array.isArray(body) ? 0 : TOP_LEVEL_NOT_OBJECT;
    } catch {
      verdict = TOP_LEVEL_NOT_JSON;
    }
  }
  if (verdict === TOP_LEVEL_NOT_JSON) {
    refuse(deps, runtime, req, client, codec, null, 'invalid_json', 'the request body is not valid JSON');
    return;
  }
  if (verdict === TOP_LEVEL_NOT_OBJECT) {
    refuse(deps, runtime, req, client, codec, null, 'invalid_request', 'the request body must be a JSON object');
    return;
  }
  const whole = raw !== null;

  if (route.kind === 'listing') {
    handleShow(deps, req, body, client);
    return;
  }

  let target: Target | null;
  if (route.kind === 'direct') {
    const [providerName, model] = req.params as [string, string];
    const lane = runtime.directLane(providerName, decodeURIComponent(model));
    if (lane === undefined) {
      // A first segment that names no provider is not a provider: the path is simply unknown.
      if (runtime.providersByName.has(providerName)) refuse(deps, runtime, req, client, codec, null, 'model_not_found', `provider "${providerName}" has no lane for model "${model}"`);
      else refuse(deps, runtime, req, client, codec, null, 'route_not_found', `no route for POST /${providerName}/${model}`);
      return;
    }
    target = { pool: null, lane, codec: lane.provider.codec };
    routeInfo.pathModel = lane.compiled.upstreamModel;
  } else if (route.kind === 'direct-model') {
    const name = decodeURIComponent(req.params[0]!);
    target = resolveByName(runtime, name);
    if (target === null) {
      refuse(deps, runtime, req, client, codec, null, 'model_not_found', `no pool or model named "${name}"`);
      return;
    }
    codec = target.codec;
    routeInfo.pathModel = name;
  } else {
    const model = codec.requestedModel(body, routeInfo);
    if (model === undefined || model === '') {
      refuse(deps, runtime, req, client, codec, null, 'invalid_request', 'the request names no model');
      return;
    }
    target = resolveByName(runtime, model);
    if (target === null) {
      refuse(deps, runtime, req, client, codec, null, 'model_not_found', `no pool or model named "${model}"`);
      return;
    }
    translatedLast[req.routeIndex] = target.codec !== codec ? 1 : 0;
  }

  // authenticate, then admit: both answer in the caller's protocol when they refuse. One clock
  // reading serves both (none for the open front door, which checks no expiry or window).
  const nowSec = runtime.config.auth.chain.length === 0 ? 0 : Math.floor(Date.now() / 1000);
  const auth = deps.auth.authenticate(req, runtime.config, nowSec);
  if (auth instanceof Promise) {
    const t = target;
    const c = codec;
    auth.then(
      (result) => admitAndStart(deps, runtime, req, client, c, raw, body, whole, modelSpan, routeInfo, t, result, Math.floor(Date.now() / 1000)),
      () => respondError(client, c, 'internal', 'the key could not be verified'),
    );
    return;
  }
  admitAndStart(deps, runtime, req, client, codec, raw, body, whole, modelSpan, routeInfo, target, auth, nowSec);
}

function admitAndStart(
  deps: PipelineDeps, runtime: Runtime, req: IngressRequest, client: ClientResponse, codec: Codec,
  raw: string | null, body: unknown, whole: boolean, modelSpan: StringSpan, routeInfo: RouteInfo, target: Target, auth: AuthResult, nowSec: number,
): void {
  if (auth instanceof Refusal) {
    refuse(deps, runtime, req, client, codec, target.pool, auth.kind, auth.message, auth.retryAfterSecs);
    return;
  }
  const lease = deps.admission.admit(auth, target.pool ?? target.lane!, runtime.config.governance.enabled, nowSec, codec, req.body, body);
  if (lease instanceof Refusal) {
    refuse(deps, runtime, req, client, codec, target.pool, lease.kind, lease.message, lease.retryAfterSecs);
    return;
  }
  const exchange = new Exchange(runtime, deps, req, client, codec, lease);
  exchange.start(raw, body, whole, modelSpan, routeInfo, target.pool, target.lane);
}

/**
 * A refusal before any Exchange: counted in gateway_requests_total as client_error under the
 * target pool ("" for a direct route or when no target was resolved yet), then answered.
 */
function refuse(
  deps: PipelineDeps, runtime: Runtime, req: IngressRequest, client: ClientResponse, codec: Codec, pool: PoolRuntime | null,
  kind: ErrorKind, message: string, retryAfterSecs?: number,
): void {
  countRequest(deps.shared, pool !== null ? pool.compiled.metrics : runtime.config.metrics.direct, codec.name, RequestOutcome.ClientError, req.startedMs);
  respondError(client, codec, kind, message, retryAfterSecs);
}

export function handleBodyTooLarge(deps: PipelineDeps, routeIndex: number, client: ClientResponse, maxBodyBytes: number): void {
  const codec = routeCodec(ROUTES[routeIndex]!, deps.runtime(), []);
  respondError(client, codec, 'body_too_large', `the request body is larger than ${maxBodyBytes} bytes`);
}
