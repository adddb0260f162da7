// Responses usage <-> model usage. input_tokens INCLUDES input_tokens_details.cached_tokens,
// while the model's `input` is uncached input.
import type { Usage } from '../../model/types.js';
import { isJsonObject, jsonNumber, tokenCount, type JsonObject } from '../framing/json-field.js';

export function decodeUsage(raw: unknown): Usage | null {
  if (!isJsonObject(raw)) return null;
  const input = tokenCount(raw.input_tokens);
  const cached = isJsonObject(raw.input_tokens_details) ? tokenCount(raw.input_tokens_details.cached_tokens) : 0;
  const usage: Usage = { input: Math.max(0, input - cached), output: tokenCount(raw.output_tokens), cacheRead: cached, cacheCreation: 0 };
  // output_tokens already counts them; kept apart only when there are some.
  const reasoning = isJsonObject(raw.output_tokens_details) ? tokenCount(raw.output_tokens_details.reasoning_tokens) : 0;
  if (reasoning > 0) usage.reasoning = reasoning;
  return usage;
}

/** Cache writes have no field of their own here: they count as (uncached) input tokens. */
export function encodeUsage(u: Usage): JsonObject {
  const input = u.input + u.cacheRead + u.cacheCreation;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: u.cacheRead },
    output_tokens: u.output,
    output_tokens_details: { reasoning_tokens: u.reasoning ?? 0 },
    total_tokens: input + u.output,
  };
}

/** JSON.stringify(encodeUsage(u)), from a template (the stream encoder's response.completed). */
export function encodeUsageJson(u: Usage): string {
  const input = u.input + u.cacheRead + u.cacheCreation;
  return (
    `{"input_tokens":${jsonNumber(input)},"input_tokens_details":{"cached_tokens":${jsonNumber(u.cacheRead)}},` +
    `"output_tokens":${jsonNumber(u.output)},"output_tokens_details":{"reasoning_tokens":${u.reasoning === undefined ? '0' : jsonNumber(u.reasoning)}},"total_tokens":${jsonNumber(input + u.output)}}`
  );
}
