// The stored-response kind (kinds.ts STORED_RESPONSE): `GET /v1/responses/{id}`,
// `GET /v1/responses/{id}/input_items` and `DELETE /v1/responses/{id}`, answered from the store
// (main's state service) for the key that created the response; another key, an expired or an
// unknown id get OpenAI's 404. Authenticated like a chat request; nothing goes upstream.
import { Disposition } from '../../../shared/routing/attempt-outcome.js';
import type { GatewayError } from '../../../shared/errors.js';
import type { ResponsesOp, ResponsesResult } from '../../../shared/responses/stored-response.js';
import { deletedView, inputItemsQuery, inputItemsView, notFoundMessage, responseView } from '../../../shared/responses/views.js';
import { STORED_RESPONSE_ROUTES } from '../../routes.js';
import { Parked, type RequestContext } from '../context.js';
import { AnswerKind, errorAnswer, wholeAnswer, type Answer } from '../end/answer.js';
import { end } from '../end/end.js';

const JSON_HEADERS: Readonly<Record<string, string>> = { 'content-type': 'application/json' };

export function storedResponseStep(ctx: RequestContext): boolean {
  const req = ctx.req;
  const route = STORED_RESPONSE_ROUTES[req.routeIndex]!;
  const id = decodeURIComponent(req.params[0]!);
  let op: ResponsesOp;
  try {
    op =
      route.op === 'input-items' ? { kind: 'input-items', id, keyId: ctx.keyId, query: inputItemsQuery(req.query) } : { kind: route.op, id, keyId: ctx.keyId };
  } catch (err) {
    end(ctx, Disposition.InvalidRequest, errorAnswer('invalid_request', (err as GatewayError).message));
    return false;
  }
  ctx.parked = Parked.Promise;
  ctx.deps.responses.call(op).then(
    (result) => answered(ctx, id, result),
    () => answered(ctx, id, null),
  );
  return false;
}

function answered(ctx: RequestContext, id: string, result: ResponsesResult | null): void {
  if (ctx.ended) return;
  const answer = answerOf(id, result);
  // A store that could not answer is the gateway's failure, counted as exhausted (503-like); a 404 is the caller's.
  const disposition = answer.kind !== AnswerKind.Error ? Disposition.Ok : answer.errorKind === 'not_found' ? Disposition.InvalidRequest : Disposition.Exhausted;
  end(ctx, disposition, answer);
}

function answerOf(id: string, result: ResponsesResult | null): Answer {
  if (result === null || !result.ok) return errorAnswer('internal', result?.message ?? 'the responses state store is unavailable');
  switch (result.kind) {
    case 'get':
      return result.record === null ? notFound(id) : wholeAnswer(200, JSON_HEADERS, responseView(result.record));
    case 'delete':
      return result.deleted ? wholeAnswer(200, JSON_HEADERS, deletedView(id)) : notFound(id);
    case 'input-items':
      return result.page === null ? notFound(id) : wholeAnswer(200, JSON_HEADERS, inputItemsView(result.page));
    default:
      return errorAnswer('internal', 'the responses state store answered another operation');
  }
}

function notFound(id: string): Answer {
  return errorAnswer('not_found', notFoundMessage(id));
}
