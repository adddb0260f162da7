// Chat Completions usage <-> model usage. prompt_tokens INCLUDES the cached tokens, while the
// model's `input` is uncached input, so the split happens here in both directions.
import type { Usage } from '../../model/types.js';
import { isJsonObject, jsonNumber, tokenCount, type JsonObject } from '../framing/json-field.js';

/** `usage` object of a completion or chunk -> model usage; null when there is none. */
export function decodeUsage(raw: unknown): Usage | null {
  if (!isJsonObject(raw)) return null;
  const prompt = tokenCount(raw.prompt_tokens);
  const cached = isJsonObject(raw.prompt_tokens_details) ? tokenCount(raw.prompt_tokens_details.cached_tokens) : 0;
  return {
    input: Math.max(0, prompt - cached),
    output: tokenCount(raw.completion_tokens),
    cacheRead: cached,
    cacheCreation: 0,
  };
}

/** Cache writes have no field of their own here: they count as (uncached) prompt tokens. */
export function encodeUsage(u: Usage): JsonObject {
  const prompt = u.input + u.cacheRead + u.cacheCreation;
  return {
    prompt_tokens: prompt,
    completion_tokens: u.output,
    total_tokens: prompt + u.output,
    prompt_tokens_details: { cached_tokens: u.cacheRead },
  };
}

/** JSON.stringify(encodeUsage(u)), from a template (the stream encoder's usage chunk). */
export function encodeUsageJson(u: Usage): string {
  const prompt = u.input + u.cacheRead + u.cacheCreation;
  return `{"prompt_tokens":${jsonNumber(prompt)},"completion_tokens":${jsonNumber(u.output)},"total_tokens":${jsonNumber(prompt + u.output)},`
    + `"prompt_tokens_details":{"cached_tokens":${jsonNumber(u.cacheRead)}}}`;
}
