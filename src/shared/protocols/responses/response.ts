// Responses non-stream body <-> model response; also the Response object the stream encoder
// sends in response.created / response.completed.
import { GatewayError } from '../../errors.js';
import type { FinishReason, ModelResponse, Usage } from '../../model/types.js';
import { ZERO_USAGE } from '../../model/types.js';
import { isJsonObject, jsonNumber, type JsonObject } from '../framing/json-field.js';
import { decodeFinishReason, encodeStatus } from './finish-reason.js';
import { decodeUsage, encodeUsage, encodeUsageJson } from './usage.js';
import { partsOfReasoningItem, reasoningItemFor } from './reasoning.js';

export function decodeResponse(body: unknown): ModelResponse {
  if (!isJsonObject(body) || !Array.isArray(body.output)) {
    throw new GatewayError('upstream_error', 'upstream response is not a Responses API response (no output)');
  }
  if (body.status === 'failed') {
    const err = isJsonObject(body.error) && typeof body.error.message === 'string' ? body.error.message : 'response failed';
    throw new GatewayError('upstream_error', err);
  }
  const content: ModelResponse['content'] = [];
  let calledTool = false;
  body.output.forEach((raw: unknown, i: number) => {
    if (!isJsonObject(raw)) return;
    if (raw.type === 'message' && Array.isArray(raw.content)) {
      for (const part of raw.content) {
        if (!isJsonObject(part)) continue;
        if (part.type === 'output_text' && typeof part.text === 'string') content.push({ type: 'text', text: part.text });
        else if (part.type === 'refusal' && typeof part.refusal === 'string') content.push({ type: 'text', text: part.refusal });
      }
    } else if (raw.type === 'function_call' && typeof raw.name === 'string') {
      calledTool = true;
      content.push({
        type: 'tool_call',
        id: typeof raw.call_id === 'string' ? raw.call_id : `call_${i}`,
        name: raw.name,
        arguments: typeof raw.arguments === 'string' ? raw.arguments : '',
      });
    } else if (raw.type === 'reasoning') {
      content.push(...partsOfReasoningItem(raw));
    } // hosted tool items: not modeled
  });
  return {
    id: typeof body.id === 'string' ? body.id : '',
    model: typeof body.model === 'string' ? body.model : '',
    content,
    finishReason: decodeFinishReason(body.status, body.incomplete_details, calledTool),
    usage: decodeUsage(body.usage) ?? { ...ZERO_USAGE },
  };
}

export function usageFromResponse(body: unknown): Usage | null {
  return isJsonObject(body) ? decodeUsage(body.usage) : null;
}

/** Output item ids the source lacks, synthesized from the item's position. */
export function messageItemId(outputIndex: number): string {
  return `msg_${outputIndex}`;
}
export function functionCallItemId(outputIndex: number): string {
  return `fc_${outputIndex}`;
}

export function messageItem(outputIndex: number, text: string, status: 'in_progress' | 'completed'): JsonObject {
  return {
    id: messageItemId(outputIndex),
    type: 'message',
    status,
    role: 'assistant',
    content: status === 'in_progress' ? [] : [outputTextPart(text)],
  };
}

export function outputTextPart(text: string): JsonObject {
  return { type: 'output_text', text, annotations: [] };
}

/** JSON.stringify(outputTextPart(text)) from `textJson`, JSON.stringify(text): the stream encoder's template. */
export function outputTextPartJson(textJson: string): string {
  return `{"type":"output_text","text":${textJson},"annotations":[]}`;
}

/** JSON.stringify(messageItem(outputIndex, '', 'in_progress')): the stream encoder's template. */
export function inProgressMessageItemJson(outputIndex: number): string {
  return `{"id":${JSON.stringify(messageItemId(outputIndex))},"type":"message","status":"in_progress","role":"assistant","content":[]}`;
}

/** JSON.stringify(messageItem(outputIndex, text, 'completed')) from `partJson`, outputTextPartJson of its text. */
export function completedMessageItemJson(outputIndex: number, partJson: string): string {
  return `{"id":${JSON.stringify(messageItemId(outputIndex))},"type":"message","status":"completed","role":"assistant","content":[${partJson}]}`;
}

export function functionCallItem(outputIndex: number, call: { id: string; name: string; arguments: string }, status: 'in_progress' | 'completed'): JsonObject {
  return {
    id: functionCallItemId(outputIndex),
    type: 'function_call',
    status,
    call_id: call.id,
    name: call.name,
    arguments: call.arguments,
  };
}

export interface ResponseFields {
  id: string;
  model: string;
  createdAtSecs: number;
  /** Undefined while in progress. */
  finish: FinishReason | undefined;
  inProgress: boolean;
  output: JsonObject[];
  usage: Usage | null;
}

/** A Response object with every field the SDK's type requires; what the model lacks is null. */
export function responseObject(f: ResponseFields): JsonObject {
  const status = encodeStatus(f.finish);
  return {
    id: f.id,
    object: 'response',
    created_at: f.createdAtSecs,
    status: f.inProgress ? 'in_progress' : status.status,
    error: null,
    incomplete_details: f.inProgress ? null : status.incomplete_details,
    instructions: null,
    max_output_tokens: null,
    metadata: {},
    model: f.model,
    output: f.output,
    parallel_tool_calls: true,
    previous_response_id: null,
    temperature: null,
    tool_choice: 'auto',
    tools: [],
    top_p: null,
    usage: f.usage === null ? null : encodeUsage(f.usage),
  };
}

/**
 * JSON.stringify(responseObject(f)) written from a template, with the output items given as
 * their JSON text (`outputJson`, a JSON array): the stream encoder's response.created and
 * response.completed, whose output items it has already written once for their done events.
 * `idJson` and `modelJson` are JSON.stringify(f.id) and JSON.stringify(f.model), made once per
 * stream. The same bytes as the object's, member for member (response-json.test.ts).
 */
export function responseJson(f: Omit<ResponseFields, 'output'>, idJson: string, modelJson: string, outputJson: string): string {
  const status = encodeStatus(f.finish);
  const incomplete = f.inProgress || status.incomplete_details === null ? 'null' : `{"reason":"${status.incomplete_details.reason}"}`;
  return (
    `{"id":${idJson},"object":"response","created_at":${jsonNumber(f.createdAtSecs)},"status":"${f.inProgress ? 'in_progress' : status.status}",` +
    `"error":null,"incomplete_details":${incomplete},"instructions":null,"max_output_tokens":null,"metadata":{},"model":${modelJson},` +
    `"output":${outputJson},"parallel_tool_calls":true,"previous_response_id":null,"temperature":null,"tool_choice":"auto","tools":[],"top_p":null,` +
    `"usage":${f.usage === null ? 'null' : encodeUsageJson(f.usage)}}`
  );
}

export function encodeResponse(resp: ModelResponse): string {
  const output: JsonObject[] = [];
  let text: string[] = [];
  const flushText = (): void => {
    if (text.length === 0) return;
    output.push(messageItem(output.length, text.join(''), 'completed'));
    text = [];
  };
  for (const part of resp.content) {
    if (part.type === 'text') {
      text.push(part.text);
    } else if (part.type === 'reasoning') {
      flushText();
      output.push(reasoningItemFor(part, output.length));
    } else {
      flushText();
      output.push(functionCallItem(output.length, part, 'completed'));
    }
  }
  flushText();
  return JSON.stringify(
    responseObject({
      id: resp.id,
      model: resp.model,
      createdAtSecs: Math.floor(Date.now() / 1000),
      finish: resp.finishReason,
      inProgress: false,
      output,
      usage: resp.usage,
    }),
  );
}
