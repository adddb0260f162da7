// Gemini usageMetadata <-> the model's Usage. promptTokenCount INCLUDES the cached tokens, so
// uncached input is prompt - cached; thinking tokens (thoughtsTokenCount) are billed as output,
// so output is candidates + thoughts and `reasoning` the thoughts.
import type { Usage } from '../../model/types.js';
import { isJsonObject, jsonNumber, tokenCount } from '../framing/json-field.js';

export function usageFromGemini(um: unknown): Usage {
  if (!isJsonObject(um)) return { input: 0, output: 0, cacheRead: 0, cacheCreation: 0 };
  const cached = tokenCount(um.cachedContentTokenCount);
  const thoughts = tokenCount(um.thoughtsTokenCount);
  const usage: Usage = {
    input: Math.max(0, tokenCount(um.promptTokenCount) - cached),
    output: tokenCount(um.candidatesTokenCount) + thoughts,
    cacheRead: cached,
    cacheCreation: 0,
  };
  if (thoughts > 0) usage.reasoning = thoughts;
  return usage;
}

/** Gemini has no cache-write count: cache creation is billed as prompt input there. */
export function usageToGemini(u: Usage): Record<string, number> {
  const prompt = u.input + u.cacheRead + u.cacheCreation;
  const thoughts = thoughtsOf(u);
  const out: Record<string, number> = {
    promptTokenCount: prompt,
    candidatesTokenCount: u.output - thoughts,
    totalTokenCount: prompt + u.output,
  };
  if (u.cacheRead > 0) out.cachedContentTokenCount = u.cacheRead;
  if (thoughts > 0) out.thoughtsTokenCount = thoughts;
  return out;
}

/** JSON.stringify(usageToGemini(u)), from a template (the stream encoder's last chunk). */
export function usageToGeminiJson(u: Usage): string {
  const prompt = u.input + u.cacheRead + u.cacheCreation;
  const thoughts = thoughtsOf(u);
  return (
    `{"promptTokenCount":${jsonNumber(prompt)},"candidatesTokenCount":${jsonNumber(u.output - thoughts)},"totalTokenCount":${jsonNumber(prompt + u.output)}` +
    (u.cacheRead > 0 ? `,"cachedContentTokenCount":${jsonNumber(u.cacheRead)}` : '') +
    (thoughts > 0 ? `,"thoughtsTokenCount":${jsonNumber(thoughts)}}` : '}')
  );
}

/** The reasoning tokens, never more than the output they are part of. */
function thoughtsOf(u: Usage): number {
  return u.reasoning === undefined ? 0 : Math.min(u.reasoning, u.output);
}
