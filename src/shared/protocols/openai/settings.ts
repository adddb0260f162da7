// Settings of an OpenAI body (Chat Completions and Responses) that change the answer and that
// no cross-protocol hop carries: the request is refused rather than answered differently
// (docs/compatibility.md). Same-protocol traffic passes them through untouched.
import type { JsonObject } from '../framing/json-field.js';

/** `n` > 1, logprobs, audio output: as the caller named them (structured output is translated: request-settings.ts). */
export function untranslatableChatSettings(b: JsonObject): string[] {
  const out: string[] = [];
  if (typeof b.n === 'number' && b.n > 1) out.push(`n=${b.n}`);
  if (b.logprobs === true) out.push('logprobs');
  if (typeof b.top_logprobs === 'number' && b.top_logprobs > 0) out.push('top_logprobs');
  if (Array.isArray(b.modalities) && b.modalities.includes('audio')) out.push('modalities audio');
  return out;
}

/** Responses: logprobs are asked with `top_logprobs`. */
export function untranslatableResponsesSettings(b: JsonObject): string[] {
  const out: string[] = [];
  if (typeof b.top_logprobs === 'number' && b.top_logprobs > 0) out.push('top_logprobs');
  return out;
}
