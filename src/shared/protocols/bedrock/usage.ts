// Bedrock Converse usage <-> the model's Usage. inputTokens is already uncached input.
import type { Usage } from '../../model/types.js';
import { isJsonObject, jsonNumber, tokenCount } from '../framing/json-field.js';

export function usageFromBedrock(u: unknown): Usage {
  if (!isJsonObject(u)) return { input: 0, output: 0, cacheRead: 0, cacheCreation: 0 };
  return {
    input: tokenCount(u.inputTokens),
    output: tokenCount(u.outputTokens),
    cacheRead: tokenCount(u.cacheReadInputTokens),
    cacheCreation: tokenCount(u.cacheWriteInputTokens),
  };
}

export function usageToBedrock(u: Usage): Record<string, number> {
  const out: Record<string, number> = {
    inputTokens: u.input,
    outputTokens: u.output,
    totalTokens: u.input + u.output + u.cacheRead + u.cacheCreation,
  };
  if (u.cacheRead > 0) out.cacheReadInputTokens = u.cacheRead;
  if (u.cacheCreation > 0) out.cacheWriteInputTokens = u.cacheCreation;
  return out;
}

/** JSON.stringify(usageToBedrock(u)), from a template (the stream encoder's metadata). */
export function usageToBedrockJson(u: Usage): string {
  return (
    `{"inputTokens":${jsonNumber(u.input)},"outputTokens":${jsonNumber(u.output)},"totalTokens":${jsonNumber(u.input + u.output + u.cacheRead + u.cacheCreation)}` +
    (u.cacheRead > 0 ? `,"cacheReadInputTokens":${jsonNumber(u.cacheRead)}` : '') +
    (u.cacheCreation > 0 ? `,"cacheWriteInputTokens":${jsonNumber(u.cacheCreation)}` : '') +
    '}'
  );
}
