// The decode step: the body, once it is all there, held to the JSON limits and checked as JSON. On a named protocol route
// only the codec's few top-level members are read (`model`, `stream`, ...:
// framing/top-level-members.ts); the whole body is parsed later, if a translation, a hook or a
// request log needs it -- at once on a route whose last request was translated.
import { Disposition } from '../../../shared/routing/attempt-outcome.js';
import { translateFastPath } from '../../../shared/protocols/fast-path/switch.js';
import { JSON_WITHIN_LIMITS, checkJsonLimits, jsonLimitMessage } from '../../../shared/protocols/framing/json-limits.js';
import {
  NO_STRING_SPAN,
  TOP_LEVEL_NOT_JSON,
  TOP_LEVEL_NOT_OBJECT,
  TOP_LEVEL_OVER_LIMIT,
  TOP_LEVEL_UNDECIDED,
  bodyHeldMarker,
  readTopLevelMembers,
} from '../../../shared/protocols/framing/top-level-members.js';
import { TOKEN_PREFIX } from '../../../shared/protocols/reasoning/state-token.js';
import { ROUTES } from '../../routes.js';
import { Parked, type RequestContext } from '../context.js';
import { errorAnswer } from '../end/answer.js';
import { end } from '../end/end.js';

/**
 * Per route (ROUTES index), 1 when its last request went to a lane of another protocol (a
 * pool's first member's): a guess of whether the next one will be translated, which only
 * chooses how its body is read (the same values either way). Set by the target step.
 */
export const translatedLast = new Uint8Array(ROUTES.length);

export function decodeStep(ctx: RequestContext): boolean {
  const req = ctx.req;
  if (!req.bodyRead) {
    ctx.parked = Parked.Body;
    return false;
  }
  const limits = ctx.runtime.config.limits;
  const route = ctx.route!;
  ctx.bytes = req.body;
  // The members read are the codec's and the cost estimator's (its output cap: governance/estimators.ts).
  // GATEWAY_TRANSLATE_FAST_PATH=off (fast-path/switch.ts) parses every body whole.
  const members = translatedLast[req.routeIndex] === 0 && translateFastPath ? route.readMembers : undefined;
  if (members !== undefined && members[0] === 'model') ctx.modelSpan = { start: -1, end: -1 };
  // The bound every body is held to before anything parses it (a nested body is refused in
  // microseconds, not parsed for seconds): framing/json-limits.ts. The members' reader holds the
  // body to it in its own pass, and notes on the way whether the body carries a state token the
  // gateway wrote (dispatch/outgoing.ts); a body it does not take whole is scanned here.
  const read =
    members !== undefined
      ? readTopLevelMembers(req.body, members, ctx.modelSpan === NO_STRING_SPAN ? null : ctx.modelSpan, limits, TOKEN_PREFIX)
      : TOP_LEVEL_UNDECIDED;
  if (typeof read === 'object') ctx.heldStateToken = bodyHeldMarker();
  else {
    const bounded = checkJsonLimits(req.body, limits);
    if (bounded !== JSON_WITHIN_LIMITS) {
      // Nothing observes a body past the limits (a tap or a log would parse it).
      ctx.bytes = null;
      ctx.modelSpan = NO_STRING_SPAN;
      end(ctx, Disposition.InvalidRequest, errorAnswer('invalid_request', jsonLimitMessage(bounded, limits)));
      return false;
    }
  }
  let verdict = typeof read === 'object' ? 0 : read === TOP_LEVEL_OVER_LIMIT ? TOP_LEVEL_UNDECIDED : read;
  ctx.head = read;
  if (verdict === TOP_LEVEL_UNDECIDED) {
    const raw = req.body.toString('utf8');
    ctx.rawText = raw;
    try {
      const body: unknown = JSON.parse(raw);
      verdict = body !== null && typeof body === 'object' && !Array.isArray(body) ? 0 : TOP_LEVEL_NOT_OBJECT;
      ctx.head = body;
      ctx.wholeBody = body;
    } catch {
      verdict = TOP_LEVEL_NOT_JSON;
    }
  }
  if (verdict === TOP_LEVEL_NOT_JSON) {
    ctx.head = undefined;
    end(ctx, Disposition.InvalidRequest, errorAnswer('invalid_json', 'the request body is not valid JSON'));
    return false;
  }
  if (verdict === TOP_LEVEL_NOT_OBJECT) {
    ctx.head = undefined;
    ctx.wholeBody = undefined;
    end(ctx, Disposition.InvalidRequest, errorAnswer('invalid_request', 'the request body must be a JSON object'));
    return false;
  }
  return true;
}
