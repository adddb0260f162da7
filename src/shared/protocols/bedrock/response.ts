// Bedrock ConverseResponse <-> the model's response. Converse names neither the response nor
// the model, so the decoded id is a fixed synthesized one and the model is left empty for the
// caller to fill from the lane.
import type { ModelResponse } from '../../model/types.js';
import { GatewayError } from '../../errors.js';
import { isJsonObject, type JsonObject } from '../framing/json-field.js';
import { argumentsObject } from '../framing/body-fields.js';
import { finishFromStopReason, stopReasonFromFinish } from './finish-reason.js';
import { usageFromBedrock, usageToBedrock } from './usage.js';
import { JSON_OUTPUT_TOOL_NAME, jsonAnswerFinish } from '../json-output-tool.js';
import { partsOfReasoningContent, reasoningBlockFor } from './reasoning.js';

export const SYNTHESIZED_RESPONSE_ID = 'bedrock-converse';

export function decodeBedrockResponse(body: unknown): ModelResponse {
  if (!isJsonObject(body)) throw new GatewayError('upstream_error', 'bedrock response: body is not a JSON object');
  const message = isJsonObject(body.output) ? body.output.message : undefined;
  if (!isJsonObject(message) || !Array.isArray(message.content)) {
    throw new GatewayError('upstream_error', 'bedrock response: output.message.content is missing');
  }
  const blocks = message.content;
  const content: ModelResponse['content'] = [];
  let answeredAsJson = false;
  for (const b of blocks) {
    if (!isJsonObject(b)) continue;
    if (typeof b.text === 'string') {
      content.push({ type: 'text', text: b.text });
    } else if (isJsonObject(b.toolUse) && b.toolUse.name === JSON_OUTPUT_TOOL_NAME) {
      // A JSON-mode answer (json-output-tool.ts): the tool's input is the answer's text.
      content.push({ type: 'text', text: JSON.stringify(b.toolUse.input ?? {}) });
      answeredAsJson = true;
    } else if (isJsonObject(b.toolUse)) {
      const t = b.toolUse;
      if (typeof t.toolUseId !== 'string' || typeof t.name !== 'string') continue;
      content.push({ type: 'tool_call', id: t.toolUseId, name: t.name, arguments: JSON.stringify(t.input ?? {}) });
    } else if (b.reasoningContent !== undefined) {
      content.push(...partsOfReasoningContent(b.reasoningContent));
    }
    // citations, images: not modeled
  }
  return {
    id: SYNTHESIZED_RESPONSE_ID,
    model: '',
    content,
    finishReason: jsonAnswerFinish(finishFromStopReason(body.stopReason), answeredAsJson, content),
    usage: usageFromBedrock(body.usage),
  };
}

export function encodeBedrockResponse(resp: ModelResponse): string {
  const content: JsonObject[] = resp.content.map((p) => {
    switch (p.type) {
      case 'text':
        return { text: p.text };
      case 'reasoning':
        return reasoningBlockFor(p);
      case 'tool_call':
        return { toolUse: { toolUseId: p.id, name: p.name, input: argumentsObject(p.arguments, p.id, 'upstream_error') } };
    }
  });
  return JSON.stringify({
    output: { message: { role: 'assistant', content } },
    stopReason: stopReasonFromFinish(resp.finishReason),
    usage: usageToBedrock(resp.usage),
    // Required by the Converse shape; the gateway does not time the model alone.
    metrics: { latencyMs: 0 },
  });
}
