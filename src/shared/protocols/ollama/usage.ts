// Ollama counts: prompt_eval_count -> input, eval_count -> output. Ollama reports no cache
// split (it omits prompt_eval_count when the whole prompt came from its cache).
import type { Usage } from '../../model/types.js';
import { tokenCount, type JsonObject } from '../framing/json-field.js';

export function decodeUsage(body: JsonObject): Usage {
  return { input: tokenCount(body.prompt_eval_count), output: tokenCount(body.eval_count), cacheRead: 0, cacheCreation: 0 };
}

/** Cached input is still prompt input to Ollama's way of counting. */
export function encodeUsage(u: Usage): { prompt_eval_count: number; eval_count: number } {
  return { prompt_eval_count: u.input + u.cacheRead + u.cacheCreation, eval_count: u.output };
}
