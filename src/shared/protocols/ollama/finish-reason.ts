// done_reason: "stop" or "length" (also "load"/"unload" for model management). Ollama says
// "stop" after tool calls, so a call in the message is what makes it tool_calls.
import type { FinishReason } from '../../model/types.js';

export function decodeFinishReason(doneReason: unknown, calledTool: boolean): FinishReason {
  if (doneReason === 'length') return 'length';
  return calledTool ? 'tool_calls' : 'stop';
}

/** Ollama has no content_filter reason; it and tool_calls are written as "stop". */
export function encodeFinishReason(reason: FinishReason | undefined): string {
  return reason === 'length' ? 'length' : 'stop';
}
