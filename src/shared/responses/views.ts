// The answers of `GET /v1/responses/{id}`, `DELETE /v1/responses/{id}` and
// `GET /v1/responses/{id}/input_items` (as OpenAI writes them), from a stored record.
import { GatewayError } from '../errors.js';
import { isJsonObject } from '../protocols/framing/json-field.js';
import type { InputItemsPage, InputItemsQuery, StoredResponse } from './stored-response.js';

export const INPUT_ITEMS_LIMIT_DEFAULT = 20;
export const INPUT_ITEMS_LIMIT_MAX = 100;

export function responseView(record: StoredResponse): string {
  return JSON.stringify(record.response);
}

export function deletedView(id: string): string {
  return JSON.stringify({ id, object: 'response', deleted: true });
}

/** The 404 message OpenAI gives for an unknown (here also: another key's, or expired) response. */
export function notFoundMessage(id: string): string {
  return `Response with id '${id}' not found.`;
}

/** The input_items query (`after`, `limit` 1..100, `order` asc|desc); a bad value is a 400 naming it. */
export function inputItemsQuery(query: string): InputItemsQuery {
  const params = new URLSearchParams(query);
  const out: InputItemsQuery = { limit: INPUT_ITEMS_LIMIT_DEFAULT, order: 'desc' };
  const limit = params.get('limit');
  if (limit !== null) {
    const n = Number(limit);
    if (!Number.isInteger(n) || n < 1 || n > INPUT_ITEMS_LIMIT_MAX)
      throw new GatewayError('invalid_request', `limit must be an integer in 1..${INPUT_ITEMS_LIMIT_MAX}, got '${limit.slice(0, 20)}'`);
    out.limit = n;
  }
  const order = params.get('order');
  if (order !== null) {
    if (order !== 'asc' && order !== 'desc') throw new GatewayError('invalid_request', `order must be 'asc' or 'desc', got '${order.slice(0, 20)}'`);
    out.order = order;
  }
  const after = params.get('after');
  if (after !== null && after !== '') out.after = after;
  return out;
}

/**
 * One page of the record's own input items, each with an id (its own, else one made from the
 * response id and its position) and a message's string content as one text part, as OpenAI
 * lists them.
 */
export function inputItemsPage(record: StoredResponse, query: InputItemsQuery): InputItemsPage {
  const items = record.input.map((item, i) => listed(item, `${record.id.replace(/^resp_/, 'item_')}_${i}`));
  if (query.order === 'desc') items.reverse();
  let start = 0;
  if (query.after !== undefined) {
    const at = items.findIndex((item) => item.id === query.after);
    start = at < 0 ? items.length : at + 1;
  }
  const data = items.slice(start, start + query.limit);
  return {
    data,
    firstId: (data[0]?.id as string | undefined) ?? null,
    lastId: (data[data.length - 1]?.id as string | undefined) ?? null,
    hasMore: start + data.length < items.length,
  };
}

export function inputItemsView(page: InputItemsPage): string {
  return JSON.stringify({ object: 'list', data: page.data, first_id: page.firstId, last_id: page.lastId, has_more: page.hasMore });
}

function listed(item: unknown, fallbackId: string): Record<string, unknown> {
  if (!isJsonObject(item)) return { id: fallbackId, type: 'unknown', value: item };
  const { id: ownId, ...rest } = item;
  const out: Record<string, unknown> = { id: typeof ownId === 'string' ? ownId : fallbackId, ...rest };
  const type = item.type ?? (item.role !== undefined ? 'message' : undefined);
  if (type === 'message') {
    out.type = 'message';
    if (typeof item.content === 'string') out.content = [{ type: item.role === 'assistant' ? 'output_text' : 'input_text', text: item.content }];
    if (out.status === undefined) out.status = 'completed';
  }
  return out;
}
