// OpenAI Responses `POST /v1/responses/input_tokens`: a Responses body, answered
// `{"object":"response.input_tokens","input_tokens":n}`.
import type { ModelRequest } from '../../model/types.js';
import type { TokenCount } from '../../model/token-count.js';
import type { EncodedUpstreamRequest } from '../codec.js';
import { bodyWithModel } from '../request-members.js';
import { countable, countOfInputTokens, pickMembers } from '../count-request.js';
import { decodeRequest, encodeRequest } from './request.js';

/** Appended to the provider's base URL (which ends in /v1). */
export const INPUT_TOKENS_PATH = '/responses/input_tokens';

/** What input_tokens takes (the openai SDK's InputTokenCountParams). */
const COUNT_MEMBERS = [
  'model',
  'input',
  'instructions',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'reasoning',
  'text',
  'truncation',
  'conversation',
  'previous_response_id',
  'personality',
] as const;

export function decodeResponsesCountRequest(body: unknown): ModelRequest {
  return countable(decodeRequest(body));
}

export function encodeResponsesCountRequest(req: ModelRequest, upstreamModel: string): EncodedUpstreamRequest {
  const chat = encodeRequest(countable(req), upstreamModel);
  return { path: INPUT_TOKENS_PATH, body: JSON.stringify(pickMembers(chat.body, COUNT_MEMBERS)) };
}

export function responsesCountPassthrough(raw: string, body: unknown, upstreamModel: string): EncodedUpstreamRequest {
  return { path: INPUT_TOKENS_PATH, body: bodyWithModel(raw, body, upstreamModel) };
}

export function decodeResponsesCountAnswer(body: unknown): TokenCount {
  return countOfInputTokens(body, 'input_tokens');
}

export function encodeResponsesCountAnswer(count: TokenCount): string {
  return JSON.stringify({ object: 'response.input_tokens', input_tokens: count.inputTokens });
}
