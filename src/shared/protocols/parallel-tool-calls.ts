// A limit of one tool call per answer (`parallel_tool_calls: false`, Anthropic's
// `disable_parallel_tool_use`) towards a lane whose protocol has no such setting (Gemini,
// Converse, Ollama). It is refused where it changes what the model may do: several tools on
// offer and no single one forced. With one tool on offer, or one named by the tool choice (the
// way clients ask for structured output through a tool: AI SDK's json tool, LangChain's
// `extract`), every call the model makes is of that tool, and the limit is dropped by this
// documented rule (docs/compatibility.md, "Tool choice and parallel tool calls").
import type { ModelRequest, ProtocolName } from '../model/types.js';
import { refuseParameter } from './refusal.js';

export function refuseUnenforceableCallLimit(req: ModelRequest, target: ProtocolName, why: string): void {
  if (req.parallelToolCalls !== false) return;
  const choice = req.toolChoice;
  if (choice?.type === 'none' || choice?.type === 'tool') return;
  if ((req.tools?.length ?? 0) < 2) return;
  refuseParameter('parallel_tool_calls false', target, why);
}
