// What every counting codec does to a decoded request: a count generates nothing, so the
// generation settings (max tokens, sampling, stop sequences, stream) and the settings that
// would change a generated answer (`untranslatable`: n > 1, a structured-output format...)
// do not apply and are cleared; content parts the target cannot carry are still refused.
import { GatewayError } from '../errors.js';
import type { TokenCount } from '../model/token-count.js';
import type { ModelRequest } from '../model/types.js';
import { isJsonObject, tokenCount } from './framing/json-field.js';

export function countable(req: ModelRequest): ModelRequest {
  const out: ModelRequest = { model: req.model, messages: req.messages, stream: false };
  if (req.system !== undefined) out.system = req.system;
  if (req.tools !== undefined) out.tools = req.tools;
  if (req.toolChoice !== undefined) out.toolChoice = req.toolChoice;
  return out;
}

/** Only `keep`'s members of an encoded chat body: a counting endpoint refuses generation fields. */
export function pickMembers(bodyJson: string, keep: readonly string[]): Record<string, unknown> {
  const body = JSON.parse(bodyJson) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of keep) if (body[k] !== undefined) out[k] = body[k];
  return out;
}

/** A counting endpoint's `{"input_tokens": n}` answer (anthropic, responses); `endpoint` names it in the error. */
export function countOfInputTokens(body: unknown, endpoint: string): TokenCount {
  if (!isJsonObject(body) || typeof body.input_tokens !== 'number') throw new GatewayError('upstream_error', `${endpoint} answer without input_tokens`);
  return { inputTokens: tokenCount(body.input_tokens), estimated: false };
}
