// finish_reason <-> model finish reason.
import type { FinishReason } from '../../model/types.js';

export function decodeFinishReason(raw: unknown): FinishReason {
  switch (raw) {
    case 'length':
      return 'length';
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls';
    case 'content_filter':
      return 'content_filter';
    default:
      return 'stop';
  }
}

/** The model's names are Chat Completions' own. */
export function encodeFinishReason(reason: FinishReason): string {
  return reason;
}
