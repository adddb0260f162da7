// The model's sampling settings, temperature and top_p, as each protocol spells and bounds them.
// Every protocol names temperature `temperature`; top_p is `top_p` or `topP`. A value outside the
// protocol's range is refused with a 400 naming it, never clamped.
import type { ModelRequest } from '../model/types.js';
import { optionalNumber, type JsonObject } from './framing/json-field.js';

/** A protocol's name for top_p (0 to 1 everywhere) and its temperature's upper bound (from 0). */
export interface SamplingMembers {
  readonly topP: string;
  readonly temperatureMax: number;
}

/** OpenAI's (Chat Completions, Responses) and Ollama's: temperature 0 to 2. */
export const CHAT_SAMPLING: SamplingMembers = { topP: 'top_p', temperatureMax: 2 };

/** `o`'s sampling members into `req`; `path` names `o` in a 400. */
export function decodeSampling(o: JsonObject, members: SamplingMembers, path: string, req: ModelRequest): void {
  const temperature = optionalNumber(o, 'temperature', path, 0, members.temperatureMax);
  if (temperature !== undefined) req.temperature = temperature;
  const topP = optionalNumber(o, members.topP, path, 0, 1);
  if (topP !== undefined) req.topP = topP;
}

/** `req`'s sampling into `out` under the target's names: a target's range may be narrower than the caller's. */
export function encodeSampling(req: ModelRequest, members: SamplingMembers, path: string, out: JsonObject): void {
  const sampling = { temperature: req.temperature, [members.topP]: req.topP };
  const temperature = optionalNumber(sampling, 'temperature', path, 0, members.temperatureMax);
  if (temperature !== undefined) out.temperature = temperature;
  const topP = optionalNumber(sampling, members.topP, path, 0, 1);
  if (topP !== undefined) out[members.topP] = topP;
}
