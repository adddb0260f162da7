// Anthropic request settings <-> the model: structured output (`output_config.format`),
// reasoning (`thinking`, `output_config.effort`), parallel tool use (`disable_parallel_tool_use`)
// and prompt-cache markers (`cache_control`). docs/compatibility.md has the tables;
// docs/decisions/201-anthropic-thinking-mode.md says why an effort becomes adaptive thinking.
import type { CacheMarker, ModelRequest, ReasoningSettings, ResponseFormat } from '../../model/types.js';
import { reasoningOff } from '../../model/reasoning.js';
import { expectObject, optionalInteger, optionalString, type JsonObject } from '../framing/json-field.js';
import { invalidRequest } from '../invalid-request.js';
import { anthropicOutputSchema } from './output-schema.js';

/** Anthropic's floor for `budget_tokens`. */
const THINKING_BUDGET_MIN = 1024;

const EFFORTS = ['low', 'medium', 'high', 'xhigh', 'max'] as const;

// ---------------------------------------------------------------- decode (ingress)

/** Reads `output_config` and `thinking` into the request. */
export function decodeOutputAndThinking(o: JsonObject, req: ModelRequest): void {
  const config = o.output_config === undefined || o.output_config === null ? undefined : expectObject(o.output_config, 'output_config');
  if (config !== undefined && config.format !== undefined && config.format !== null) req.responseFormat = decodeFormat(config.format);
  const effort = config === undefined ? undefined : optionalString(config, 'effort', 'output_config');
  if (effort !== undefined && !(EFFORTS as readonly string[]).includes(effort)) {
    throw invalidRequest(`output_config.effort must be one of ${EFFORTS.join(', ')}`);
  }
  const reasoning = decodeThinking(o.thinking);
  if (effort !== undefined && reasoning?.effort !== 'none') {
    req.reasoning = { ...reasoning, effort: effort as ReasoningSettings['effort'] };
  } else if (reasoning !== undefined) {
    req.reasoning = reasoning;
  }
}

function decodeFormat(raw: unknown): ResponseFormat {
  const f = expectObject(raw, 'output_config.format');
  if (f.type !== 'json_schema') throw invalidRequest('output_config.format.type must be "json_schema"');
  // Anthropic's schema mode always constrains the answer: strict, in OpenAI's words.
  return { type: 'json_schema', schema: expectObject(f.schema, 'output_config.format.schema'), strict: true };
}

function decodeThinking(raw: unknown): ReasoningSettings | undefined {
  if (raw === undefined || raw === null) return undefined;
  const t = expectObject(raw, 'thinking');
  const out: ReasoningSettings = {};
  switch (t.type) {
    case 'disabled':
      return { effort: 'none' };
    case 'enabled': {
      const budget = optionalInteger(t, 'budget_tokens', 'thinking', 0);
      if (budget === undefined) throw invalidRequest('thinking.budget_tokens is required when thinking.type is "enabled"');
      out.budgetTokens = budget;
      break;
    }
    case 'adaptive':
    case 'between_tools':
      break; // on, at the model's own depth
    default:
      throw invalidRequest('thinking.type must be one of "enabled", "adaptive", "between_tools", "disabled"');
  }
  const display = optionalString(t, 'display', 'thinking');
  if (display === 'summarized') out.summary = 'auto';
  else if (display === 'omitted') out.summary = 'none';
  return out;
}

/** `cache_control` on a block, a system block or a tool definition. */
export function decodeCacheControl(raw: unknown, path: string): CacheMarker | undefined {
  if (raw === undefined || raw === null) return undefined;
  const c = expectObject(raw, path);
  const ttl = optionalString(c, 'ttl', path);
  if (ttl === undefined) return {};
  if (ttl !== '5m' && ttl !== '1h') throw invalidRequest(`${path}.ttl must be "5m" or "1h"`);
  return { ttl };
}

/**
 * The top-level `cache_control`: a marker on the last cacheable block of the request (the last
 * part of the last message, else the system prompt, else the last tool), as Anthropic applies it.
 */
export function applyTopLevelCacheControl(marker: CacheMarker, req: ModelRequest): void {
  const last = req.messages[req.messages.length - 1]?.content.at(-1);
  if (last !== undefined && last.type !== 'unsupported') last.cache ??= marker;
  else if (req.system !== undefined) req.systemCache ??= marker;
  else if (req.tools !== undefined && req.tools.length > 0) req.tools[req.tools.length - 1]!.cache ??= marker;
}

// ---------------------------------------------------------------- encode (upstream)

export function cacheControl(marker: CacheMarker): JsonObject {
  return marker.ttl === undefined ? { type: 'ephemeral' } : { type: 'ephemeral', ttl: marker.ttl };
}

/** Whether the encoded request thinks (Anthropic then refuses a forced tool choice). */
export function thinkingOn(req: ModelRequest): boolean {
  return req.reasoning !== undefined && !reasoningOff(req.reasoning);
}

/**
 * `thinking`, `output_config` and the max_tokens they need, written into `body` (which holds
 * `max_tokens` already). A budget becomes `enabled` with that budget, raised to Anthropic's
 * floor of 1024; when it is not under max_tokens, max_tokens grows by it (the budget comes on
 * top of the answer's allowance). An effort level, or reasoning on without one, becomes
 * `adaptive` with `output_config.effort` (`minimal` is `low`).
 */
export function encodeOutputAndThinking(req: ModelRequest, body: JsonObject): void {
  const config: JsonObject = {};
  const r = req.reasoning;
  if (r !== undefined) {
    if (reasoningOff(r)) {
      body.thinking = { type: 'disabled' };
    } else if (r.budgetTokens !== undefined) {
      const budget = Math.max(THINKING_BUDGET_MIN, r.budgetTokens);
      const maxTokens = body.max_tokens as number;
      if (budget >= maxTokens) body.max_tokens = maxTokens + budget;
      body.thinking = withDisplay({ type: 'enabled', budget_tokens: budget }, r);
    } else {
      body.thinking = withDisplay({ type: 'adaptive' }, r);
      if (r.effort !== undefined) config.effort = r.effort === 'minimal' ? 'low' : r.effort;
    }
  }
  const f = req.responseFormat;
  if (f?.type === 'json_schema') config.format = { type: 'json_schema', schema: anthropicOutputSchema(f.schema) };
  if (Object.keys(config).length > 0) body.output_config = config;
}

function withDisplay(thinking: JsonObject, r: ReasoningSettings): JsonObject {
  if (r.summary !== undefined) thinking.display = r.summary === 'none' ? 'omitted' : 'summarized';
  return thinking;
}
