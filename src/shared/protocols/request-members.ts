// The top-level request members that the protocols naming the model in the body (openai,
// responses, anthropic, ollama) read alike: the cheap reads a route makes before a full decode,
// the required members a chat decode checks first, with the same 400s for every protocol, and
// the one edit a same-protocol body gets. Gemini and Bedrock name the model in the path instead.
import { expectArray, expectString, isJsonObject, rewriteTopLevelString, type JsonObject } from './framing/json-field.js';
import { invalidRequest } from './invalid-request.js';

/** The model the body names, read without a full decode; undefined when it names none. */
export function bodyModel(body: unknown): string | undefined {
  return isJsonObject(body) && typeof body.model === 'string' ? body.model : undefined;
}

/** Whether the body asks for a stream with `stream: true` (a protocol that streams only when asked). */
export function streamFlagSet(body: unknown): boolean {
  return isJsonObject(body) && body.stream === true;
}

/** The required `model`: a 400 when it is missing or not a string. */
export function requiredModel(b: JsonObject): string {
  if (b.model === undefined) throw invalidRequest('model is required');
  return expectString(b.model, 'model');
}

/** The model a path-model protocol's route names (gemini, bedrock): a 400 showing `pathForm` when it names none. */
export function requiredPathModel(pathModel: string | undefined, pathForm: string): string {
  if (pathModel === undefined || pathModel.length === 0) throw invalidRequest(`the model is named in the path: ${pathForm}`);
  return pathModel;
}

/** A chat body's required `messages`: a 400 when missing, not a list, or empty. */
export function requiredMessages(b: JsonObject): unknown[] {
  if (b.messages === undefined) throw invalidRequest('messages is required');
  const list = expectArray(b.messages, 'messages');
  if (list.length === 0) throw invalidRequest('messages must not be empty');
  return list;
}

/**
 * A same-protocol body: the caller's bytes with only `model` set to the lane's (every other byte
 * kept). `body`: what `raw` was parsed into (rewriteTopLevelString finds `model` by it).
 */
export function bodyWithModel(raw: string, body: unknown, upstreamModel: string): string {
  return rewriteTopLevelString(raw, 'model', upstreamModel, body);
}
