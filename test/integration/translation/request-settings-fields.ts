// The request settings the matrix-request-settings test sends, in each ingress protocol's own
// fields, and how it reads what reached each lane from the mock's record of the upstream body.
// Expectations are written out by hand here (docs/compatibility.md's tables), not computed by
// the codecs under test.
import type { ProtocolName } from '../../../src/shared/model/types.js';

type Fields = Record<string, unknown>;
type Body = Record<string, any>;

/** A closed, all-required schema: every schema mode of every protocol takes it as is. */
export const FORECAST = {
  type: 'object',
  properties: { city: { type: 'string' }, days: { type: 'array', items: { type: 'integer' } } },
  required: ['city', 'days'],
  additionalProperties: false,
};
/** The same in Gemini's OpenAPI subset (capital type names, no additionalProperties)... */
export const FORECAST_GEMINI = {
  type: 'OBJECT',
  properties: { city: { type: 'STRING' }, days: { type: 'ARRAY', items: { type: 'INTEGER' } } },
  required: ['city', 'days'],
};
/** ...and as the JSON Schema the gateway reads it into. */
export const FORECAST_FROM_GEMINI = {
  type: 'object',
  properties: { city: { type: 'string' }, days: { type: 'array', items: { type: 'integer' } } },
  required: ['city', 'days'],
};

export const SCHEMA_FIELDS: Readonly<Record<ProtocolName, Fields>> = {
  openai: { response_format: { type: 'json_schema', json_schema: { name: 'forecast', schema: FORECAST, strict: true } } },
  responses: { text: { format: { type: 'json_schema', name: 'forecast', schema: FORECAST, strict: true } } },
  anthropic: { output_config: { format: { type: 'json_schema', schema: FORECAST } } },
  gemini: { responseMimeType: 'application/json', responseSchema: FORECAST_GEMINI },
  bedrock: { outputConfig: { textFormat: { type: 'json_schema', structure: { jsonSchema: { name: 'forecast', schema: JSON.stringify(FORECAST) } } } } },
  ollama: { format: FORECAST },
};

/** JSON mode (no schema); Anthropic and Bedrock callers have none. */
export const JSON_MODE_FIELDS: Readonly<Partial<Record<ProtocolName, Fields>>> = {
  openai: { response_format: { type: 'json_object' } },
  responses: { text: { format: { type: 'json_object' } } },
  gemini: { responseMimeType: 'application/json' },
  ollama: { format: 'json' },
};

export type LaneFormat = { mode: 'schema'; schema: unknown; strict?: unknown } | { mode: 'json' } | { mode: 'output-tool' } | null;

const OUTPUT_TOOL = 'gateway_json_output';

/** What structured output the lane's body asks for, in its own field. */
export function laneFormat(lane: ProtocolName, b: Body): LaneFormat {
  switch (lane) {
    case 'openai': {
      const f = b.response_format;
      if (f?.type === 'json_object') return { mode: 'json' };
      return f?.type === 'json_schema' ? { mode: 'schema', schema: f.json_schema.schema, strict: f.json_schema.strict } : null;
    }
    case 'responses': {
      const f = b.text?.format;
      if (f?.type === 'json_object') return { mode: 'json' };
      return f?.type === 'json_schema' ? { mode: 'schema', schema: f.schema, strict: f.strict } : null;
    }
    case 'anthropic':
      if (b.output_config?.format !== undefined) return { mode: 'schema', schema: b.output_config.format.schema };
      return b.tool_choice?.name === OUTPUT_TOOL && b.tools?.some((t: Body) => t.name === OUTPUT_TOOL) ? { mode: 'output-tool' } : null;
    case 'gemini': {
      const g = b.generationConfig ?? {};
      if (g.responseMimeType !== 'application/json') return null;
      const schema = g.responseJsonSchema ?? g.responseSchema;
      return schema === undefined ? { mode: 'json' } : { mode: 'schema', schema };
    }
    case 'bedrock': {
      const def = b.outputConfig?.textFormat?.structure?.jsonSchema;
      if (def !== undefined) return { mode: 'schema', schema: JSON.parse(def.schema) };
      return b.toolConfig?.toolChoice?.tool?.name === OUTPUT_TOOL ? { mode: 'output-tool' } : null;
    }
    case 'ollama':
      if (b.format === 'json') return { mode: 'json' };
      return typeof b.format === 'object' ? { mode: 'schema', schema: b.format } : null;
  }
}

// ---------------------------------------------------------------- reasoning

export const REASONING_FIELDS: Readonly<Record<ProtocolName, Fields>> = {
  openai: { reasoning_effort: 'high' },
  responses: { reasoning: { effort: 'low', summary: 'auto' } },
  anthropic: { thinking: { type: 'enabled', budget_tokens: 2048 } }, // max_tokens 4096 (native-call.ts)
  gemini: { thinkingConfig: { thinkingBudget: 8192, includeThoughts: true } },
  bedrock: { additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 16384 } }, inferenceConfig: { maxTokens: 20000 } },
  ollama: { think: 'medium' },
};

/** The lane's reasoning fields. */
export function laneReasoning(lane: ProtocolName, b: Body): unknown {
  switch (lane) {
    case 'openai':
      return { reasoning_effort: b.reasoning_effort };
    case 'responses':
      return { reasoning: b.reasoning };
    case 'anthropic':
      return { thinking: b.thinking, effort: b.output_config?.effort, max_tokens: b.max_tokens };
    case 'gemini':
      return { thinkingConfig: b.generationConfig?.thinkingConfig };
    case 'bedrock':
      return { extra: b.additionalModelRequestFields, effort: b.outputConfig?.effort, maxTokens: b.inferenceConfig?.maxTokens };
    case 'ollama':
      return { think: b.think };
  }
}

const ADAPTIVE = { type: 'adaptive' };
const ADAPTIVE_SHOWN = { type: 'adaptive', display: 'summarized' };

/**
 * EXPECTED_REASONING[ingress][lane]: an effort reaches a level-taking lane as is and a budget
 * as its row's level (2048 low, 8192 medium, 16384 high); a budget reaches a budget-taking
 * lane as is; an effort reaches Anthropic and Bedrock as adaptive thinking plus that effort,
 * and Gemini as its row's budget; a budget not under max_tokens is added to it.
 */
export const EXPECTED_REASONING: Readonly<Record<ProtocolName, Record<ProtocolName, unknown>>> = {
  openai: {
    openai: { reasoning_effort: 'high' },
    responses: { reasoning: { effort: 'high' } },
    anthropic: { thinking: ADAPTIVE, effort: 'high', max_tokens: 4096 },
    gemini: { thinkingConfig: { thinkingBudget: 16384 } },
    bedrock: { extra: { thinking: ADAPTIVE }, effort: 'high', maxTokens: undefined },
    ollama: { think: 'high' },
  },
  responses: {
    openai: { reasoning_effort: 'low' },
    responses: { reasoning: { effort: 'low', summary: 'auto' } },
    anthropic: { thinking: ADAPTIVE_SHOWN, effort: 'low', max_tokens: 4096 },
    gemini: { thinkingConfig: { thinkingBudget: 2048, includeThoughts: true } },
    bedrock: { extra: { thinking: ADAPTIVE_SHOWN }, effort: 'low', maxTokens: undefined },
    ollama: { think: 'low' },
  },
  anthropic: {
    openai: { reasoning_effort: 'low' },
    responses: { reasoning: { effort: 'low' } },
    anthropic: { thinking: { type: 'enabled', budget_tokens: 2048 }, effort: undefined, max_tokens: 4096 },
    gemini: { thinkingConfig: { thinkingBudget: 2048 } },
    bedrock: { extra: { thinking: { type: 'enabled', budget_tokens: 2048 } }, effort: undefined, maxTokens: 4096 },
    ollama: { think: 'low' },
  },
  gemini: {
    openai: { reasoning_effort: 'medium' },
    responses: { reasoning: { effort: 'medium', summary: 'auto' } },
    anthropic: { thinking: { type: 'enabled', budget_tokens: 8192, display: 'summarized' }, effort: undefined, max_tokens: 4096 + 8192 },
    gemini: { thinkingConfig: { thinkingBudget: 8192, includeThoughts: true } },
    bedrock: { extra: { thinking: { type: 'enabled', budget_tokens: 8192, display: 'summarized' } }, effort: undefined, maxTokens: 4096 + 8192 },
    ollama: { think: 'medium' },
  },
  bedrock: {
    openai: { reasoning_effort: 'high' },
    responses: { reasoning: { effort: 'high' } },
    anthropic: { thinking: { type: 'enabled', budget_tokens: 16384 }, effort: undefined, max_tokens: 20000 },
    gemini: { thinkingConfig: { thinkingBudget: 16384 } },
    bedrock: { extra: { thinking: { type: 'enabled', budget_tokens: 16384 } }, effort: undefined, maxTokens: 20000 },
    ollama: { think: 'high' },
  },
  ollama: {
    openai: { reasoning_effort: 'medium' },
    responses: { reasoning: { effort: 'medium' } },
    anthropic: { thinking: ADAPTIVE, effort: 'medium', max_tokens: 4096 },
    gemini: { thinkingConfig: { thinkingBudget: 8192 } },
    bedrock: { extra: { thinking: ADAPTIVE }, effort: 'medium', maxTokens: undefined },
    ollama: { think: 'medium' },
  },
};

// ---------------------------------------------------------------- prompt-cache markers

/** A system prompt and a first user block marked for caching; Gemini and Ollama callers have no markers. */
export const CACHE_FIELDS: Readonly<Partial<Record<ProtocolName, Fields>>> = {
  openai: {
    messages: [
      { role: 'system', content: [{ type: 'text', text: 'Long system.', prompt_cache_breakpoint: { mode: 'explicit' } }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Cached doc.', prompt_cache_breakpoint: { mode: 'explicit' } },
          { type: 'text', text: 'Question?' },
        ],
      },
    ],
  },
  responses: {
    input: [
      { role: 'system', content: [{ type: 'input_text', text: 'Long system.', prompt_cache_breakpoint: { mode: 'explicit' } }] },
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'Cached doc.', prompt_cache_breakpoint: { mode: 'explicit' } },
          { type: 'input_text', text: 'Question?' },
        ],
      },
    ],
  },
  anthropic: {
    system: [{ type: 'text', text: 'Long system.', cache_control: { type: 'ephemeral' } }],
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Cached doc.', cache_control: { type: 'ephemeral', ttl: '1h' } },
          { type: 'text', text: 'Question?' },
        ],
      },
    ],
  },
  bedrock: {
    system: [{ text: 'Long system.' }, { cachePoint: { type: 'default' } }],
    messages: [{ role: 'user', content: [{ text: 'Cached doc.' }, { cachePoint: { type: 'default', ttl: '1h' } }, { text: 'Question?' }] }],
  },
};

/** The marker fields of each protocol's wire, as they appear in a body's text. */
export const MARKER_FIELD: Readonly<Record<ProtocolName, string | null>> = {
  openai: 'prompt_cache_breakpoint',
  responses: 'prompt_cache_breakpoint',
  anthropic: 'cache_control',
  bedrock: 'cachePoint',
  gemini: null,
  ollama: null,
};

/** Markers at an Anthropic or Bedrock lane: after the system prompt and after the first user block (TTL when the caller gave one). */
export function laneMarkers(lane: ProtocolName, b: Body): unknown {
  if (lane === 'anthropic') return { system: b.system?.[0]?.cache_control, first: b.messages?.[0]?.content?.[0]?.cache_control };
  if (lane === 'bedrock') return { system: b.system?.[1]?.cachePoint, first: b.messages?.[0]?.content?.[1]?.cachePoint };
  return undefined;
}

// ---------------------------------------------------------------- tool choice

const WEATHER = {
  name: 'get_weather',
  description: 'Weather',
  schema: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
};
const TIME = { name: 'get_time', description: 'Time', schema: { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] } };

export type Choice = 'named' | 'none' | 'required' | 'parallel_off';

/** The two tools and a tool choice in the ingress's own fields; undefined where the caller cannot say it. */
export function toolChoiceFields(ingress: ProtocolName, choice: Choice): Fields | undefined {
  const tools = [WEATHER, TIME];
  switch (ingress) {
    case 'openai': {
      const base = { tools: tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.schema } })) };
      if (choice === 'named') return { ...base, tool_choice: { type: 'function', function: { name: 'get_time' } } };
      if (choice === 'parallel_off') return { ...base, parallel_tool_calls: false };
      return { ...base, tool_choice: choice };
    }
    case 'responses': {
      const base = { tools: tools.map((t) => ({ type: 'function', name: t.name, description: t.description, parameters: t.schema, strict: false })) };
      if (choice === 'named') return { ...base, tool_choice: { type: 'function', name: 'get_time' } };
      if (choice === 'parallel_off') return { ...base, parallel_tool_calls: false };
      return { ...base, tool_choice: choice };
    }
    case 'anthropic': {
      const base = { tools: tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.schema })) };
      const tool_choice = {
        named: { type: 'tool', name: 'get_time' },
        none: { type: 'none' },
        required: { type: 'any' },
        parallel_off: { type: 'auto', disable_parallel_tool_use: true },
      }[choice];
      return { ...base, tool_choice };
    }
    case 'gemini': {
      if (choice === 'parallel_off') return undefined;
      const fcc = { named: { mode: 'ANY', allowedFunctionNames: ['get_time'] }, none: { mode: 'NONE' }, required: { mode: 'ANY' } }[choice];
      return {
        tools: [{ functionDeclarations: tools.map((t) => ({ name: t.name, description: t.description, parametersJsonSchema: t.schema })) }],
        toolConfig: { functionCallingConfig: fcc },
      };
    }
    case 'bedrock': {
      if (choice === 'parallel_off' || choice === 'none') return undefined;
      const toolChoice = choice === 'named' ? { tool: { name: 'get_time' } } : { any: {} };
      return {
        toolConfig: { tools: tools.map((t) => ({ toolSpec: { name: t.name, description: t.description, inputSchema: { json: t.schema } } })), toolChoice },
      };
    }
    case 'ollama':
      return undefined; // Ollama has no tool choice
  }
}

/** What the lane's body says of the tool choice, in its own field ('refused' where the hop is a 400). */
export function laneToolChoice(lane: ProtocolName, b: Body): unknown {
  switch (lane) {
    case 'openai':
      return { tool_choice: b.tool_choice, parallel_tool_calls: b.parallel_tool_calls };
    case 'responses':
      return { tool_choice: b.tool_choice, parallel_tool_calls: b.parallel_tool_calls };
    case 'anthropic':
      return { tool_choice: b.tool_choice };
    case 'gemini':
      return { fcc: b.toolConfig?.functionCallingConfig };
    case 'bedrock':
      return { toolChoice: b.toolConfig?.toolChoice, tools: b.toolConfig?.tools?.length };
    case 'ollama':
      return { tools: b.tools?.map((t: Body) => t.function.name) };
  }
}

export const EXPECTED_TOOL_CHOICE: Readonly<Record<Choice, Record<ProtocolName, unknown>>> = {
  named: {
    openai: { tool_choice: { type: 'function', function: { name: 'get_time' } }, parallel_tool_calls: undefined },
    responses: { tool_choice: { type: 'function', name: 'get_time' }, parallel_tool_calls: undefined },
    anthropic: { tool_choice: { type: 'tool', name: 'get_time' } },
    gemini: { fcc: { mode: 'ANY', allowedFunctionNames: ['get_time'] } },
    bedrock: { toolChoice: { tool: { name: 'get_time' } }, tools: 2 },
    ollama: { tools: ['get_time'] }, // narrowed to the named tool
  },
  none: {
    openai: { tool_choice: 'none', parallel_tool_calls: undefined },
    responses: { tool_choice: 'none', parallel_tool_calls: undefined },
    anthropic: { tool_choice: { type: 'none' } },
    gemini: { fcc: { mode: 'NONE' } },
    bedrock: { toolChoice: undefined, tools: undefined }, // no "none" in Converse: the tools are left out
    ollama: { tools: undefined }, // likewise
  },
  required: {
    openai: { tool_choice: 'required', parallel_tool_calls: undefined },
    responses: { tool_choice: 'required', parallel_tool_calls: undefined },
    anthropic: { tool_choice: { type: 'any' } },
    gemini: { fcc: { mode: 'ANY' } },
    bedrock: { toolChoice: { any: {} }, tools: 2 },
    ollama: 'refused',
  },
  // Only the keys written here are compared (the caller's own tool choice, if any, rides along).
  parallel_off: {
    openai: { parallel_tool_calls: false },
    responses: { parallel_tool_calls: false },
    anthropic: { tool_choice: { type: 'auto', disable_parallel_tool_use: true } },
    gemini: 'refused',
    bedrock: 'refused',
    ollama: 'refused',
  },
};
