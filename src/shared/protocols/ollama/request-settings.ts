// Ollama request settings <-> the model: structured output (`format`: "json" or a JSON
// Schema), reasoning (`think`: a boolean, or "low"/"medium"/"high" for the models that take a
// level), and the tool choice Ollama has no field for, honoured by the tools the lane is sent
// (docs/compatibility.md has the tables).
import type { ModelRequest, ReasoningSettings, ResponseFormat, ToolDef } from '../../model/types.js';
import { effortOf, reasoningOff, threeLevelEffort } from '../../model/reasoning.js';
import { expectObject, type JsonObject } from '../framing/json-field.js';
import { invalidRequest } from '../invalid-request.js';
import { refuseParameter } from '../refusal.js';
import { refuseUnenforceableCallLimit } from '../parallel-tool-calls.js';

// ---------------------------------------------------------------- decode (ingress)

/** `format` and `think` of /api/chat and /api/generate bodies. */
export function decodeFormatAndThink(b: JsonObject, req: ModelRequest): void {
  const format = decodeFormat(b.format);
  if (format !== undefined) req.responseFormat = format;
  const reasoning = decodeThink(b.think);
  if (reasoning !== undefined) req.reasoning = reasoning;
}

function decodeFormat(raw: unknown): ResponseFormat | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (raw === 'json') return { type: 'json' };
  if (typeof raw === 'string') throw invalidRequest(`format must be "json" or a JSON Schema object, got "${raw}"`);
  return { type: 'json_schema', schema: expectObject(raw, 'format') };
}

function decodeThink(raw: unknown): ReasoningSettings | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (raw === true) return {};
  if (raw === false) return { effort: 'none' };
  if (raw === 'low' || raw === 'medium' || raw === 'high') return { effort: raw };
  throw invalidRequest('think must be true, false, "low", "medium" or "high"');
}

// ---------------------------------------------------------------- encode (upstream)

export function encodeFormatAndThink(req: ModelRequest, body: JsonObject): void {
  const f = req.responseFormat;
  if (f !== undefined) body.format = f.type === 'json' ? 'json' : f.schema;
  const r = req.reasoning;
  if (r !== undefined) {
    // A level when the caller named one (or a budget, by the table), else plain on.
    body.think = reasoningOff(r) ? false : r.effort === undefined && r.budgetTokens === undefined ? true : threeLevelEffort(effortOf(r));
  }
}

/**
 * The tools the lane is sent, honouring a tool choice Ollama has no field for: `none` sends no
 * tools, a named tool sends only that one, `required` with one tool on offer is that tool named,
 * `required` among several cannot be honoured (refused), `auto` is Ollama's own behaviour. A
 * limit of one call per answer cannot be honoured either (parallel-tool-calls.ts says when that
 * is refused). A named tool narrows what the model may call; Ollama cannot make it call one.
 */
export function toolsForChoice(req: ModelRequest): ToolDef[] | undefined {
  const tools = req.tools;
  if (tools === undefined || tools.length === 0) return undefined;
  const choice = req.toolChoice;
  if (choice?.type === 'none') return undefined;
  if (choice?.type === 'required' && tools.length > 1) {
    refuseParameter('tool_choice required', 'ollama', 'Ollama has no setting that makes the model call one of several tools');
  }
  refuseUnenforceableCallLimit(req, 'ollama', 'Ollama has no setting that limits an answer to one tool call');
  if (choice?.type !== 'tool') return tools;
  const named = tools.filter((t) => t.name === choice.name);
  if (named.length === 0) throw invalidRequest(`tool_choice names the tool "${choice.name}", which is not among the request's tools`);
  return named;
}
