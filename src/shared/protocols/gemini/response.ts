// Gemini GenerateContentResponse <-> the model's response. Only the first candidate is read
// (the model has one answer); function calls without an id get `call_0`, `call_1`, ...
import type { ContentPart, ModelResponse } from '../../model/types.js';
import { GatewayError } from '../../errors.js';
import { isJsonObject, type JsonObject } from '../framing/json-field.js';
import { argumentsObject } from './fields.js';
import { finishFromGemini, geminiFromFinish } from './finish-reason.js';
import { usageFromGemini, usageToGemini } from './usage.js';
import { geminiParts, partsOfSignature, partsOfThought, signatureOf } from './thought.js';

/** What a response lacks and the model needs: Gemini does not always send a responseId. */
export const SYNTHESIZED_RESPONSE_ID = 'gemini-response';

/** The first candidate's parts, or [] when there is none (e.g. a blocked prompt). */
export function candidateParts(candidate: JsonObject | undefined): unknown[] {
  const content = candidate !== undefined && isJsonObject(candidate.content) ? candidate.content : undefined;
  return content !== undefined && Array.isArray(content.parts) ? content.parts : [];
}

export function firstCandidate(body: JsonObject): JsonObject | undefined {
  const c = Array.isArray(body.candidates) ? body.candidates[0] : undefined;
  return isJsonObject(c) ? c : undefined;
}

/** The call's id, or the next synthesized one. */
export function callId(fc: JsonObject, ordinal: number): string {
  return typeof fc.id === 'string' && fc.id.length > 0 ? fc.id : `call_${ordinal}`;
}

export function decodeGeminiResponse(body: unknown): ModelResponse {
  if (!isJsonObject(body)) throw new GatewayError('upstream_error', 'gemini response: body is not a JSON object');
  const candidate = firstCandidate(body);
  const blocked = candidate === undefined && isJsonObject(body.promptFeedback) && typeof body.promptFeedback.blockReason === 'string';
  if (candidate === undefined && !blocked) throw new GatewayError('upstream_error', 'gemini response: no candidate and no promptFeedback.blockReason');
  const content: ModelResponse['content'] = [];
  let calls = 0;
  for (const p of candidateParts(candidate)) {
    if (!isJsonObject(p)) continue;
    const signature = signatureOf(p);
    if (typeof p.text === 'string' && p.thought === true) {
      content.push(...partsOfThought(p.text, signature));
    } else if (typeof p.text === 'string') {
      const last = content[content.length - 1];
      // Gemini may split one answer over several text parts; the model keeps one text.
      if (last !== undefined && last.type === 'text') last.text += p.text;
      else if (p.text.length > 0) content.push({ type: 'text', text: p.text });
      if (signature !== undefined) content.push(...partsOfSignature(signature)); // signs the text before it
    } else if (isJsonObject(p.functionCall) && typeof p.functionCall.name === 'string') {
      const fc = p.functionCall;
      if (signature !== undefined) content.push(...partsOfSignature(signature)); // signs the call after it
      content.push({ type: 'tool_call', id: callId(fc, calls++), name: fc.name as string, arguments: JSON.stringify(fc.args ?? {}) });
    }
  }
  return {
    id: typeof body.responseId === 'string' ? body.responseId : SYNTHESIZED_RESPONSE_ID,
    model: typeof body.modelVersion === 'string' ? body.modelVersion : '',
    content,
    finishReason: blocked ? 'content_filter' : finishFromGemini(candidate?.finishReason, calls > 0),
    usage: usageFromGemini(body.usageMetadata),
  };
}

export function encodeGeminiResponse(resp: ModelResponse): string {
  const parts = geminiParts(resp.content, true, answerPart);
  // @google/genai's chat history refuses a candidate whose content has no parts.
  if (parts.length === 0) parts.push({ text: '' });
  return JSON.stringify({
    candidates: [{ content: { parts, role: 'model' }, finishReason: geminiFromFinish(resp.finishReason), index: 0 }],
    usageMetadata: usageToGemini(resp.usage),
    modelVersion: resp.model,
    responseId: resp.id,
  });
}

function answerPart(p: ContentPart): JsonObject | undefined {
  if (p.type === 'text') return { text: p.text };
  if (p.type === 'tool_call') return { functionCall: { id: p.id, name: p.name, args: argumentsObject(p.arguments, p.id, 'upstream_error') } };
  return undefined;
}
