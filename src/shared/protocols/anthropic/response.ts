// Anthropic Messages response body <-> the model's response.
import type { ModelResponse } from '../../model/types.js';
import { GatewayError } from '../../errors.js';
import { isJsonObject, type JsonObject } from '../framing/json-field.js';
import { argumentsObject } from '../framing/body-fields.js';
import { finishFromStopReason, stopReasonFromFinish } from './finish-reason.js';
import { usageFromAnthropic, usageToAnthropic } from './usage.js';
import { JSON_OUTPUT_TOOL_NAME, jsonAnswerFinish } from '../json-output-tool.js';
import { partsOfThinkingBlock, thinkingBlockFor } from './thinking.js';

function malformed(what: string): GatewayError {
  return new GatewayError('upstream_error', `anthropic response: ${what}`);
}

export function decodeAnthropicResponse(body: unknown): ModelResponse {
  if (!isJsonObject(body)) throw malformed('body is not a JSON object');
  if (!Array.isArray(body.content)) throw malformed('content is not an array');
  const content: ModelResponse['content'] = [];
  let answeredAsJson = false;
  for (const b of body.content) {
    if (!isJsonObject(b)) continue;
    if (b.type === 'text' && typeof b.text === 'string') {
      content.push({ type: 'text', text: b.text });
    } else if (b.type === 'tool_use' && b.name === JSON_OUTPUT_TOOL_NAME) {
      // A JSON-mode answer (json-output-tool.ts): the tool's input is the answer's text.
      content.push({ type: 'text', text: JSON.stringify(b.input ?? {}) });
      answeredAsJson = true;
    } else if (b.type === 'tool_use' && typeof b.id === 'string' && typeof b.name === 'string') {
      content.push({ type: 'tool_call', id: b.id, name: b.name, arguments: JSON.stringify(b.input ?? {}) });
    } else if (b.type === 'thinking' || b.type === 'redacted_thinking') {
      content.push(...partsOfThinkingBlock(b));
    }
    // server tool blocks: outside the modeled subset
  }
  return {
    id: typeof body.id === 'string' ? body.id : '',
    model: typeof body.model === 'string' ? body.model : '',
    content,
    finishReason: jsonAnswerFinish(finishFromStopReason(body.stop_reason), answeredAsJson, content),
    usage: usageFromAnthropic(body.usage),
  };
}

export function encodeAnthropicResponse(resp: ModelResponse): string {
  const content: JsonObject[] = resp.content.map((p) => {
    switch (p.type) {
      case 'text':
        return { type: 'text', text: p.text };
      case 'reasoning':
        return thinkingBlockFor(p);
      case 'tool_call':
        return { type: 'tool_use', id: p.id, name: p.name, input: argumentsObject(p.arguments, p.id, 'upstream_error') };
    }
  });
  return JSON.stringify({
    id: resp.id,
    type: 'message',
    role: 'assistant',
    model: resp.model,
    content,
    stop_reason: stopReasonFromFinish(resp.finishReason),
    stop_sequence: null,
    usage: usageToAnthropic(resp.usage),
  });
}
