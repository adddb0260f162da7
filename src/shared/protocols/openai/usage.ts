// Chat Completions usage <-> model usage. prompt_tokens INCLUDES the cached tokens, while the
// model's `input` is uncached input, so the split happens here in both directions.
import type { Usage } from '../../model/types.js';
import { isJsonObject, jsonNumber, tokenCount, type JsonObject } from '../framing/json-field.js';

/** `usage` object of a completion or chunk -> model usage; null when there is none. */
export function decodeUsage(raw: unknown): Usage | null {
  if (!isJsonObject(raw)) return null;
  const prompt = tokenCount(raw.prompt_tokens);
  const cached = isJsonObject(raw.prompt_tokens_details) ? tokenCount(raw.prompt_tokens_details.cached_tokens) : 0;
  const usage: Usage = {
    input: Math.max(0, prompt - cached),
    output: tokenCount(raw.completion_tokens),
    cacheRead: cached,
    cacheCreation: 0,
  };
  // completion_tokens already counts them; kept apart only when there are some.
  const reasoning = isJsonObject(raw.completion_tokens_details) ? tokenCount(raw.completion_tokens_details.reasoning_tokens) : 0;
  if (reasoning > 0) usage.reasoning = reasoning;
  return usage;
}

/** Cache writes have no field of their own here: they count as (uncached) prompt tokens. */
export function encodeUsage(u: Usage): JsonObject {
  const prompt = u.input + u.cacheRead + u.cacheCreation;
  const out: JsonObject = {
    prompt_tokens: prompt,
    completion_tokens: u.output,
    total_tokens: prompt + u.output,
    prompt_tokens_details: { cached_tokens: u.cacheRead },
  };
  if (u.reasoning !== undefined) out.completion_tokens_details = { reasoning_tokens: u.reasoning };
  return out;
}

/** JSON.stringify(encodeUsage(u)), from a template (the stream encoder's usage chunk). */
export function encodeUsageJson(u: Usage): string {
  const prompt = u.input + u.cacheRead + u.cacheCreation;
  return (
    `{"prompt_tokens":${jsonNumber(prompt)},"completion_tokens":${jsonNumber(u.output)},"total_tokens":${jsonNumber(prompt + u.output)},` +
    `"prompt_tokens_details":{"cached_tokens":${jsonNumber(u.cacheRead)}}` +
    (u.reasoning === undefined ? '}' : `,"completion_tokens_details":{"reasoning_tokens":${jsonNumber(u.reasoning)}}}`)
  );
}
