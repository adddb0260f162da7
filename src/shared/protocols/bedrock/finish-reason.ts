// Bedrock Converse stopReason <-> the model's finish reason.
import type { FinishReason } from '../../model/types.js';

export function finishFromStopReason(stopReason: unknown): FinishReason {
  switch (stopReason) {
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'guardrail_intervened':
    case 'content_filtered':
      return 'content_filter';
    default:
      return 'stop'; // end_turn, stop_sequence
  }
}

const STOP_REASONS: Readonly<Record<FinishReason, string>> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  content_filter: 'content_filtered',
};

export function stopReasonFromFinish(reason: FinishReason): string {
  return STOP_REASONS[reason];
}
