// Gemini generationConfig settings <-> the model: structured output (`responseMimeType` with
// `responseJsonSchema` or the OpenAPI-subset `responseSchema`) and reasoning (`thinkingConfig`:
// `thinkingBudget`, `thinkingLevel`, `includeThoughts`). docs/compatibility.md has the tables.
import type { ModelRequest, ReasoningEffort, ReasoningSettings, ResponseFormat } from '../../model/types.js';
import { EFFORT_BUDGET_TOKENS, reasoningOff } from '../../model/reasoning.js';
import { expectObject, optionalBoolean, optionalInteger, optionalString, type JsonObject } from '../framing/json-field.js';
import { invalidRequest } from '../invalid-request.js';
import { field, keyOf } from './fields.js';
import { openApiToJsonSchema } from './schema-types.js';

const JSON_MIME = 'application/json';

// ---------------------------------------------------------------- decode (ingress)

/**
 * `responseMimeType` application/json, with `responseJsonSchema` (JSON Schema, as is) or
 * `responseSchema` (Gemini's OpenAPI subset, converted) when one is given. Any other mime type
 * but text/plain (`text/x.enum`...) is left to the caller's refusal list.
 */
export function decodeResponseFormat(g: JsonObject): ResponseFormat | undefined {
  const mime = field(g, 'responseMimeType', 'response_mime_type');
  const jsonSchema = field(g, 'responseJsonSchema', 'response_json_schema');
  const schema = field(g, 'responseSchema', 'response_schema');
  if (mime !== undefined && mime !== null && mime !== JSON_MIME) return undefined;
  if (jsonSchema !== undefined && jsonSchema !== null) {
    return { type: 'json_schema', schema: expectObject(jsonSchema, 'generationConfig.responseJsonSchema') };
  }
  if (schema !== undefined && schema !== null) {
    return { type: 'json_schema', schema: openApiToJsonSchema(expectObject(schema, 'generationConfig.responseSchema')) };
  }
  return mime === JSON_MIME ? { type: 'json' } : undefined;
}

const LEVELS: Readonly<Record<string, ReasoningEffort>> = { MINIMAL: 'minimal', LOW: 'low', MEDIUM: 'medium', HIGH: 'high' };

/**
 * `thinkingConfig`: a budget (0 is off, -1 is the model's own choice: reasoning on at its
 * default), or a level; `includeThoughts` says whether the reasoning is shown. includeThoughts
 * false alone sets nothing (it only hides what the model's default does).
 */
export function decodeThinkingConfig(g: JsonObject): ReasoningSettings | undefined {
  const raw = field(g, 'thinkingConfig', 'thinking_config');
  if (raw === undefined || raw === null) return undefined;
  const t = expectObject(raw, 'generationConfig.thinkingConfig');
  const path = 'generationConfig.thinkingConfig';
  const out: ReasoningSettings = {};
  const budget = optionalInteger(t, keyOf(t, 'thinkingBudget', 'thinking_budget'), path, -1);
  if (budget !== undefined && budget >= 0) out.budgetTokens = budget;
  const level = optionalString(t, keyOf(t, 'thinkingLevel', 'thinking_level'), path);
  if (level !== undefined && level !== 'THINKING_LEVEL_UNSPECIFIED') {
    const effort = LEVELS[level.toUpperCase()];
    if (effort === undefined) throw invalidRequest(`${path}.thinkingLevel must be one of ${Object.keys(LEVELS).join(', ')}`);
    out.effort = effort;
  }
  const include = optionalBoolean(t, keyOf(t, 'includeThoughts', 'include_thoughts'), path);
  if (include === true) out.summary = 'auto';
  else if (include === false && (budget !== undefined || out.effort !== undefined)) out.summary = 'none';
  if (budget === undefined && out.effort === undefined && include !== true) return undefined;
  return out;
}

// ---------------------------------------------------------------- encode (upstream)

/** Structured output and thinking into generationConfig `g`. */
export function encodeOutputAndThinking(req: ModelRequest, g: JsonObject): void {
  const f = req.responseFormat;
  if (f !== undefined) {
    g.responseMimeType = JSON_MIME;
    // responseJsonSchema takes JSON Schema as is; responseSchema would reject much of it.
    if (f.type === 'json_schema') g.responseJsonSchema = f.schema;
  }
  if (req.reasoning !== undefined) g.thinkingConfig = thinkingConfig(req.reasoning);
}

/**
 * Always a thinkingBudget: the caller's budget, a level's row of the table, 0 when off, -1 (the
 * model's own choice) when on without either. Gemini 3 takes budgets as well as levels, and
 * Gemini 2.5 refuses thinkingLevel, so a budget reaches both
 * (docs/decisions/206-gemini-thinking-as-a-budget.md).
 */
function thinkingConfig(r: ReasoningSettings): JsonObject {
  const t: JsonObject = {};
  if (reasoningOff(r)) t.thinkingBudget = 0;
  else if (r.budgetTokens !== undefined) t.thinkingBudget = r.budgetTokens;
  else if (r.effort !== undefined) t.thinkingBudget = EFFORT_BUDGET_TOKENS[r.effort];
  else t.thinkingBudget = -1;
  if (r.summary !== undefined && !reasoningOff(r)) t.includeThoughts = r.summary !== 'none';
  return t;
}
