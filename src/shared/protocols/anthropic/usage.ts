// Anthropic usage <-> the model's Usage. Anthropic's input_tokens is already uncached input.
import type { Usage } from '../../model/types.js';
import { isJsonObject, jsonNumber, tokenCount } from '../framing/json-field.js';

/** Reads an Anthropic `usage` object; absent fields count 0. */
export function usageFromAnthropic(u: unknown): Usage {
  if (!isJsonObject(u)) return { input: 0, output: 0, cacheRead: 0, cacheCreation: 0 };
  return {
    input: tokenCount(u.input_tokens),
    output: tokenCount(u.output_tokens),
    cacheRead: tokenCount(u.cache_read_input_tokens),
    cacheCreation: tokenCount(u.cache_creation_input_tokens),
  };
}

/** Folds a stream's partial usage report into the running total: present fields overwrite. */
export function mergeAnthropicUsage(total: Usage, u: unknown): void {
  if (!isJsonObject(u)) return;
  if (typeof u.input_tokens === 'number') total.input = tokenCount(u.input_tokens);
  if (typeof u.output_tokens === 'number') total.output = tokenCount(u.output_tokens);
  if (typeof u.cache_read_input_tokens === 'number') total.cacheRead = tokenCount(u.cache_read_input_tokens);
  if (typeof u.cache_creation_input_tokens === 'number') total.cacheCreation = tokenCount(u.cache_creation_input_tokens);
}

export function usageToAnthropic(u: Usage): Record<string, number> {
  return {
    input_tokens: u.input,
    output_tokens: u.output,
    cache_creation_input_tokens: u.cacheCreation,
    cache_read_input_tokens: u.cacheRead,
  };
}

/** JSON.stringify(usageToAnthropic(u)), from a template (the stream encoder's message_delta). */
export function usageToAnthropicJson(u: Usage): string {
  return (
    `{"input_tokens":${jsonNumber(u.input)},"output_tokens":${jsonNumber(u.output)},` +
    `"cache_creation_input_tokens":${jsonNumber(u.cacheCreation)},"cache_read_input_tokens":${jsonNumber(u.cacheRead)}}`
  );
}
