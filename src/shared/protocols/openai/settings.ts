// Settings of an OpenAI body (Chat Completions and Responses) that change the answer and that
// no cross-protocol hop carries: the request is refused rather than answered differently
// (docs/compatibility.md). Same-protocol traffic passes them through untouched.
import { isJsonObject, type JsonObject } from '../framing/json-field.js';

/** `n` > 1, logprobs, a structured-output format, audio output: as the caller named them. */
export function untranslatableChatSettings(b: JsonObject): string[] {
  const out: string[] = [];
  if (typeof b.n === 'number' && b.n > 1) out.push(`n=${b.n}`);
  if (b.logprobs === true) out.push('logprobs');
  if (typeof b.top_logprobs === 'number' && b.top_logprobs > 0) out.push('top_logprobs');
  const format = isJsonObject(b.response_format) ? b.response_format.type : undefined;
  if (typeof format === 'string' && format !== 'text') out.push(`response_format ${format}`);
  if (Array.isArray(b.modalities) && b.modalities.includes('audio')) out.push('modalities audio');
  return out;
}

/** Responses: structured output lives in `text.format`; logprobs are asked with `top_logprobs`. */
export function untranslatableResponsesSettings(b: JsonObject): string[] {
  const out: string[] = [];
  const format = isJsonObject(b.text) && isJsonObject(b.text.format) ? b.text.format.type : undefined;
  if (typeof format === 'string' && format !== 'text') out.push(`text.format ${format}`);
  if (typeof b.top_logprobs === 'number' && b.top_logprobs > 0) out.push('top_logprobs');
  return out;
}
