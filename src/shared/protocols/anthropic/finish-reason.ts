// Anthropic stop_reason <-> the model's finish reason.
import type { FinishReason } from '../../model/types.js';

export function finishFromStopReason(stopReason: unknown): FinishReason {
  switch (stopReason) {
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'refusal':
      return 'content_filter';
    default:
      // end_turn, stop_sequence, pause_turn: the model stopped on its own.
      return 'stop';
  }
}

const STOP_REASONS: Readonly<Record<FinishReason, string>> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  content_filter: 'refusal',
};

export function stopReasonFromFinish(reason: FinishReason): string {
  return STOP_REASONS[reason];
}
