// Gemini usageMetadata <-> the model's Usage. promptTokenCount INCLUDES the cached tokens, so
// uncached input is prompt - cached; thinking tokens are billed as output.
import type { Usage } from '../../model/types.js';
import { isJsonObject, jsonNumber, tokenCount } from '../framing/json-field.js';

export function usageFromGemini(um: unknown): Usage {
  if (!isJsonObject(um)) return { input: 0, output: 0, cacheRead: 0, cacheCreation: 0 };
  const cached = tokenCount(um.cachedContentTokenCount);
  return {
    input: Math.max(0, tokenCount(um.promptTokenCount) - cached),
    output: tokenCount(um.candidatesTokenCount) + tokenCount(um.thoughtsTokenCount),
    cacheRead: cached,
    cacheCreation: 0,
  };
}

/** Gemini has no cache-write count: cache creation is billed as prompt input there. */
export function usageToGemini(u: Usage): Record<string, number> {
  const prompt = u.input + u.cacheRead + u.cacheCreation;
  const out: Record<string, number> = {
    promptTokenCount: prompt,
    candidatesTokenCount: u.output,
    totalTokenCount: prompt + u.output,
  };
  if (u.cacheRead > 0) out.cachedContentTokenCount = u.cacheRead;
  return out;
}

/** JSON.stringify(usageToGemini(u)), from a template (the stream encoder's last chunk). */
export function usageToGeminiJson(u: Usage): string {
  const prompt = u.input + u.cacheRead + u.cacheCreation;
  return `{"promptTokenCount":${jsonNumber(prompt)},"candidatesTokenCount":${jsonNumber(u.output)},"totalTokenCount":${jsonNumber(prompt + u.output)}`
    + (u.cacheRead > 0 ? `,"cachedContentTokenCount":${jsonNumber(u.cacheRead)}}` : '}');
}
