// Anthropic `POST /v1/messages/count_tokens`: a Messages body without the generation fields,
// answered `{"input_tokens": n}`.
import type { ModelRequest } from '../../model/types.js';
import type { TokenCount } from '../../model/token-count.js';
import type { EncodedUpstreamRequest } from '../codec.js';
import { bodyWithModel } from '../request-members.js';
import { countable, countOfInputTokens, pickMembers } from '../count-request.js';
import { decodeAnthropicRequest, encodeAnthropicRequest } from './request.js';

export const COUNT_TOKENS_PATH = '/v1/messages/count_tokens';

/** What count_tokens takes ("extra inputs are not permitted" for the rest, max_tokens included). */
const COUNT_MEMBERS = ['model', 'messages', 'system', 'tools', 'tool_choice', 'thinking', 'output_config', 'mcp_servers', 'context_management'] as const;

export function decodeAnthropicCountRequest(body: unknown): ModelRequest {
  return countable(decodeAnthropicRequest(body));
}

export function encodeAnthropicCountRequest(req: ModelRequest, upstreamModel: string): EncodedUpstreamRequest {
  const chat = encodeAnthropicRequest(countable(req), upstreamModel);
  return {
    path: COUNT_TOKENS_PATH,
    body: JSON.stringify(pickMembers(chat.body, COUNT_MEMBERS)),
    ...(chat.headers !== undefined ? { headers: chat.headers } : {}),
  };
}

export function anthropicCountPassthrough(raw: string, body: unknown, upstreamModel: string): EncodedUpstreamRequest {
  return { path: COUNT_TOKENS_PATH, body: bodyWithModel(raw, body, upstreamModel) };
}

export function decodeAnthropicCountAnswer(body: unknown): TokenCount {
  return countOfInputTokens(body, 'count_tokens');
}

export function encodeAnthropicCountAnswer(count: TokenCount): string {
  return JSON.stringify({ input_tokens: count.inputTokens });
}
