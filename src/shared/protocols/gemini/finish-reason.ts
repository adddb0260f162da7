// Gemini finishReason <-> the model's finish reason.
import type { FinishReason } from '../../model/types.js';

/** STOP after a functionCall part means the model is waiting on tools. */
export function finishFromGemini(reason: unknown, sawToolCall: boolean): FinishReason {
  switch (reason) {
    case 'MAX_TOKENS':
      return 'length';
    case 'SAFETY':
    case 'RECITATION':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
    case 'IMAGE_SAFETY':
      return 'content_filter';
    default:
      // STOP, and the rest (OTHER, LANGUAGE, MALFORMED_FUNCTION_CALL...) which the model cannot name.
      return sawToolCall ? 'tool_calls' : 'stop';
  }
}

const GEMINI_REASONS: Readonly<Record<FinishReason, string>> = {
  stop: 'STOP',
  length: 'MAX_TOKENS',
  tool_calls: 'STOP',
  content_filter: 'SAFETY',
};

export function geminiFromFinish(reason: FinishReason): string {
  return GEMINI_REASONS[reason];
}

/** Whether a chunk's finishReason ends the candidate (the unspecified value does not). */
export function isFinishReason(reason: unknown): reason is string {
  return typeof reason === 'string' && reason.length > 0 && reason !== 'FINISH_REASON_UNSPECIFIED';
}
