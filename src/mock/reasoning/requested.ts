// Whether a request asks its model to reason, in its protocol's own setting (setting
// `reasoning=auto`: the mock then answers with reasoning, as a thinking model does).
import { objectAt, type JsonObject } from '../protocols/json-read.js';
import type { MockProtocolName } from '../protocols/types.js';

export function reasoningRequested(protocol: MockProtocolName, body: JsonObject): boolean {
  switch (protocol) {
    case 'anthropic': {
      const type = objectAt(body.thinking)?.type;
      return type === 'enabled' || type === 'adaptive';
    }
    case 'openai':
      return (typeof body.reasoning_effort === 'string' && body.reasoning_effort !== 'none') || objectAt(body.thinking)?.type === 'enabled';
    case 'responses': {
      const r = objectAt(body.reasoning);
      return r !== null && ((typeof r.effort === 'string' && r.effort !== 'none') || typeof r.summary === 'string');
    }
    case 'gemini': {
      const config = objectAt(objectAt(body.generationConfig ?? body.generation_config)?.thinkingConfig);
      if (config === null) return false;
      const budget = config.thinkingBudget ?? config.thinking_budget;
      return (
        config.includeThoughts === true ||
        config.include_thoughts === true ||
        (typeof budget === 'number' && budget !== 0) ||
        typeof (config.thinkingLevel ?? config.thinking_level) === 'string'
      );
    }
    case 'bedrock': {
      const fields = objectAt(body.additionalModelRequestFields);
      return objectAt(fields?.thinking)?.type === 'enabled' || objectAt(fields?.reasoningConfig)?.type === 'enabled';
    }
    case 'ollama':
      return body.think === true || typeof body.think === 'string';
  }
}
