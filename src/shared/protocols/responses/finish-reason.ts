// The Responses API has no finish reason: a response is `completed` (its function_call items
// say whether tools were called) or `incomplete` with a reason.
import type { FinishReason } from '../../model/types.js';
import { isJsonObject } from '../framing/json-field.js';

/** From a response's status and incomplete_details, and whether it called a tool. */
export function decodeFinishReason(status: unknown, incompleteDetails: unknown, calledTool: boolean): FinishReason {
  if (status === 'incomplete' && isJsonObject(incompleteDetails)) {
    if (incompleteDetails.reason === 'max_output_tokens') return 'length';
    if (incompleteDetails.reason === 'content_filter') return 'content_filter';
  }
  return calledTool ? 'tool_calls' : 'stop';
}

export interface EncodedStatus {
  status: 'completed' | 'incomplete';
  incomplete_details: { reason: 'max_output_tokens' | 'content_filter' } | null;
}

export function encodeStatus(reason: FinishReason | undefined): EncodedStatus {
  if (reason === 'length') return { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } };
  if (reason === 'content_filter') return { status: 'incomplete', incomplete_details: { reason: 'content_filter' } };
  return { status: 'completed', incomplete_details: null };
}
