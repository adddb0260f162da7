// Bedrock Converse request settings <-> the model: structured output
// (`outputConfig.textFormat`, the schema as JSON text), reasoning (`outputConfig.effort` and
// the model family's own `additionalModelRequestFields`: Claude's `thinking`, Nova's
// `reasoningConfig`) and prompt-cache markers (`cachePoint` blocks). docs/compatibility.md has
// the tables; docs/decisions/202-bedrock-reasoning-by-model-family.md says why the family
// is read from the model id.
import type { CacheMarker, ModelRequest, ReasoningEffort, ReasoningSettings, ResponseFormat } from '../../model/types.js';
import { effortOf, reasoningOff, threeLevelEffort } from '../../model/reasoning.js';
import { expectObject, expectString, isJsonObject, optionalInteger, optionalString, type JsonObject } from '../framing/json-field.js';
import { invalidRequest } from '../invalid-request.js';
import { anthropicOutputSchema } from '../anthropic/output-schema.js';

const EFFORTS = ['low', 'medium', 'high', 'xhigh', 'max'];
/** Claude's floor for budget_tokens (as on Anthropic's own API). */
const THINKING_BUDGET_MIN = 1024;
/** maxTokens written beside a thinking budget when the caller set none (Anthropic's codec's default). */
const ANSWER_TOKENS_DEFAULT = 4096;

// ---------------------------------------------------------------- decode (ingress)

export function decodeOutputConfig(o: JsonObject, req: ModelRequest): void {
  const config = o.outputConfig === undefined || o.outputConfig === null ? undefined : expectObject(o.outputConfig, 'outputConfig');
  if (config !== undefined && config.textFormat !== undefined && config.textFormat !== null) req.responseFormat = decodeTextFormat(config.textFormat);
  const effort = config === undefined ? undefined : optionalString(config, 'effort', 'outputConfig');
  if (effort !== undefined && !EFFORTS.includes(effort)) throw invalidRequest(`outputConfig.effort must be one of ${EFFORTS.join(', ')}`);
  const extra = isJsonObject(o.additionalModelRequestFields) ? o.additionalModelRequestFields : undefined;
  const reasoning = extra === undefined ? undefined : decodeFamilyReasoning(extra);
  if (effort !== undefined && reasoning?.effort !== 'none') req.reasoning = { ...reasoning, effort: effort as ReasoningEffort };
  else if (reasoning !== undefined) req.reasoning = reasoning;
}

function decodeTextFormat(raw: unknown): ResponseFormat {
  const f = expectObject(raw, 'outputConfig.textFormat');
  if (f.type !== 'json_schema') throw invalidRequest('outputConfig.textFormat.type must be "json_schema"');
  const structure = expectObject(f.structure, 'outputConfig.textFormat.structure');
  const def = expectObject(structure.jsonSchema, 'outputConfig.textFormat.structure.jsonSchema');
  const path = 'outputConfig.textFormat.structure.jsonSchema';
  const text = expectString(def.schema, `${path}.schema`);
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch {
    throw invalidRequest(`${path}.schema must be a JSON Schema as JSON text`);
  }
  // Converse's schema mode always constrains the answer: strict, in OpenAI's words.
  const format: ResponseFormat = { type: 'json_schema', schema: expectObject(schema, `${path}.schema`), strict: true };
  const name = optionalString(def, 'name', path);
  if (name !== undefined) format.name = name;
  const description = optionalString(def, 'description', path);
  if (description !== undefined) format.description = description;
  return format;
}

/** Claude's `thinking`, Nova's `reasoningConfig`, an open-weight model's `reasoning_effort`. */
function decodeFamilyReasoning(extra: JsonObject): ReasoningSettings | undefined {
  if (isJsonObject(extra.thinking)) {
    const t = extra.thinking;
    if (t.type === 'disabled') return { effort: 'none' };
    const out: ReasoningSettings = {};
    if (t.type === 'enabled') {
      const budget = optionalInteger(t, 'budget_tokens', 'additionalModelRequestFields.thinking', 0);
      if (budget !== undefined) out.budgetTokens = budget;
    } // adaptive: on, at the model's own depth
    if (t.display === 'summarized') out.summary = 'auto';
    else if (t.display === 'omitted') out.summary = 'none';
    return out;
  }
  if (isJsonObject(extra.reasoningConfig)) {
    const c = extra.reasoningConfig;
    if (c.type === 'disabled') return { effort: 'none' };
    const level = optionalString(c, 'maxReasoningEffort', 'additionalModelRequestFields.reasoningConfig');
    return level === 'low' || level === 'medium' || level === 'high' ? { effort: level } : {};
  }
  const effort = optionalString(extra, 'reasoning_effort', 'additionalModelRequestFields');
  if (effort === 'low' || effort === 'medium' || effort === 'high') return { effort };
  return undefined;
}

/** A `cachePoint` block, as the marker it puts after the block before it. */
export function decodeCachePoint(raw: unknown, path: string): CacheMarker {
  const c = expectObject(raw, path);
  const ttl = optionalString(c, 'ttl', path);
  if (ttl === undefined) return {};
  if (ttl !== '5m' && ttl !== '1h') throw invalidRequest(`${path}.ttl must be "5m" or "1h"`);
  return { ttl };
}

// ---------------------------------------------------------------- encode (upstream)

export function cachePointBlock(marker: CacheMarker): JsonObject {
  return { cachePoint: marker.ttl === undefined ? { type: 'default' } : { type: 'default', ttl: marker.ttl } };
}

type Family = 'claude' | 'nova';

/**
 * The family whose reasoning fields a Converse model id takes: `amazon.nova-*` (with or without
 * a cross-region prefix such as `us.`) is Nova; anything else, Claude included and ids that
 * name no family (inference profile ARNs), gets Claude's fields.
 */
function reasoningFamily(modelId: string): Family {
  return /^(?:[a-z]{2,6}\.)?amazon\.nova/.test(modelId) ? 'nova' : 'claude';
}

/** Whether the encoded request thinks as Claude does (a forced tool choice is then refused). */
export function claudeThinking(req: ModelRequest, modelId: string): boolean {
  return req.reasoning !== undefined && !reasoningOff(req.reasoning) && reasoningFamily(modelId) === 'claude';
}

/**
 * outputConfig (textFormat, effort) and the family's additionalModelRequestFields, written into
 * `body` (whose inferenceConfig is already there, if any).
 */
export function encodeOutputAndReasoning(req: ModelRequest, modelId: string, body: JsonObject): void {
  const config: JsonObject = {};
  const f = req.responseFormat;
  if (f?.type === 'json_schema') {
    const def: JsonObject = { schema: JSON.stringify(anthropicOutputSchema(f.schema)) };
    if (f.name !== undefined) def.name = f.name;
    if (f.description !== undefined) def.description = f.description;
    config.textFormat = { type: 'json_schema', structure: { jsonSchema: def } };
  }
  const r = req.reasoning;
  if (r !== undefined && reasoningFamily(modelId) === 'nova') {
    body.additionalModelRequestFields = {
      reasoningConfig: reasoningOff(r) ? { type: 'disabled' } : { type: 'enabled', maxReasoningEffort: threeLevelEffort(effortOf(r)) },
    };
  } else if (r !== undefined) {
    body.additionalModelRequestFields = { thinking: claudeThinkingField(r, body) };
    if (!reasoningOff(r) && r.budgetTokens === undefined && r.effort !== undefined) config.effort = r.effort === 'minimal' ? 'low' : r.effort;
  }
  if (Object.keys(config).length > 0) body.outputConfig = config;
}

/** As on Anthropic's API: a budget is `enabled` (floor 1024, maxTokens grown past it), else `adaptive`. */
function claudeThinkingField(r: ReasoningSettings, body: JsonObject): JsonObject {
  if (reasoningOff(r)) return { type: 'disabled' };
  const display = r.summary === undefined ? {} : { display: r.summary === 'none' ? 'omitted' : 'summarized' };
  if (r.budgetTokens === undefined) return { type: 'adaptive', ...display };
  const budget = Math.max(THINKING_BUDGET_MIN, r.budgetTokens);
  const inference = (body.inferenceConfig ??= {}) as JsonObject;
  const maxTokens = typeof inference.maxTokens === 'number' ? inference.maxTokens : ANSWER_TOKENS_DEFAULT;
  inference.maxTokens = budget >= maxTokens ? maxTokens + budget : maxTokens;
  return { type: 'enabled', budget_tokens: budget, ...display };
}
