// JSON mode (any JSON object, no schema) on a lane whose protocol constrains output only to a
// schema (Anthropic `output_config.format`, Bedrock `outputConfig.textFormat`: both want every
// object closed, so "any object" cannot be written): the request offers one more tool, this
// one, whose input is any object, and makes the model call it. The lane's response decoders
// turn a call of it back into the answer's text (its input is the JSON), and a tool_use stop
// into an ordinary stop, so the caller sees a JSON text answer as its JSON mode gives.
// The name is the gateway's own, so no caller tool is mistaken for it.
import type { FinishReason, ModelRequest, ToolChoice, ToolDef } from '../model/types.js';

export const JSON_OUTPUT_TOOL_NAME = 'gateway_json_output';

const JSON_OUTPUT_TOOL: Readonly<ToolDef> = Object.freeze({
  name: JSON_OUTPUT_TOOL_NAME,
  description: 'Give your answer by calling this tool: its input is the answer, as one JSON object.',
  parameters: { type: 'object' },
});

export function isJsonOutputTool(name: string): boolean {
  return name === JSON_OUTPUT_TOOL_NAME;
}

/** The tools and tool choice a JSON-mode request is written with. */
export interface JsonModeTools {
  tools: ToolDef[];
  choice: ToolChoice;
}

/**
 * The tools for a JSON-mode request, or null when the request is not one or when the answer is
 * a tool call of the caller's anyway (tool choice `required` or a named tool). With tools of
 * the caller's, the model must call some tool (`required`): one of those, or the output tool.
 * `forcedChoiceAllowed` false (Anthropic refuses a forced tool choice while thinking): the tool
 * is offered with choice `auto` instead.
 */
export function jsonModeTools(req: ModelRequest, forcedChoiceAllowed: boolean): JsonModeTools | null {
  if (req.responseFormat?.type !== 'json') return null;
  const choice = req.toolChoice;
  if (choice?.type === 'required' || choice?.type === 'tool') return null;
  const callerTools = choice?.type === 'none' ? [] : (req.tools ?? []);
  const tools = [...callerTools, JSON_OUTPUT_TOOL];
  if (!forcedChoiceAllowed) return { tools, choice: { type: 'auto' } };
  return { tools, choice: callerTools.length > 0 ? { type: 'required' } : { type: 'tool', name: JSON_OUTPUT_TOOL_NAME } };
}

/** A tool_use stop whose only calls were the output tool's is the answer's end: `stop`. */
export function jsonAnswerFinish(finish: FinishReason, answeredAsJson: boolean, content: ReadonlyArray<{ readonly type: string }>): FinishReason {
  return answeredAsJson && finish === 'tool_calls' && !content.some((p) => p.type === 'tool_call') ? 'stop' : finish;
}
