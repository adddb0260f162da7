// Ollama /api/chat request body <-> model request. Sampling settings live in `options`
// (num_predict, temperature, top_p, stop); images are bare base64; there is no tool_choice
// (request-settings.ts honours one by the tools it sends, and reads `format` and `think`).
// Tool call ids are not part of Ollama's documented API: they are read when a client sends
// them (`tool_calls[].id`, `tool_call_id`) and written as extra fields, and otherwise a tool
// result is matched to its call by tool name, in order.
import type { ContentPart, ImagePart, ModelMessage, ModelRequest, ToolCallPart } from '../../model/types.js';
import type { EncodedUpstreamRequest } from '../codec.js';
import { expectArray, expectObject, expectString, isJsonObject, optionalBoolean, optionalString, type JsonObject } from '../framing/json-field.js';
import { invalidRequest } from '../invalid-request.js';
import { mediaTypeOfBase64 } from './image.js';
import { argumentsObject, argumentsText } from './tool-arguments.js';
import { requiredMessages, requiredModel } from '../request-members.js';
import { splitDataUrl } from '../framing/body-fields.js';
import { decodeFunctionTools } from '../function-tools.js';
import { describeSource, refusePart, refuseUntranslatable } from '../refusal.js';
import { CHAT_SAMPLING, decodeSampling } from '../sampling.js';
import { inlineFileText } from '../file-parts.js';
import { decodeFormatAndThink, encodeFormatAndThink, toolsForChoice } from './request-settings.js';
import { plainCallId } from '../reasoning/call-id.js';
import { ollamaMessageReasoning } from './thinking.js';

export const CHAT_PATH = '/api/chat';

// ---------------------------------------------------------------------------------------------
// Ingress: caller's body -> model
// ---------------------------------------------------------------------------------------------

/** Ollama streams unless told `stream: false`. */
export function requestedStream(body: unknown): boolean {
  return !(isJsonObject(body) && body.stream === false);
}

interface DecodeState {
  nextCallId: number;
  /** Calls of the latest assistant message not yet answered by a tool message. */
  unanswered: ToolCallPart[];
}

export function decodeRequest(body: unknown): ModelRequest {
  const b = expectObject(body, 'request body');
  const model = requiredModel(b);
  const rawMessages = requiredMessages(b);

  const system: string[] = [];
  const messages: ModelMessage[] = [];
  const state: DecodeState = { nextCallId: 0, unanswered: [] };
  rawMessages.forEach((raw, i) => decodeMessage(raw, `messages[${i}]`, system, messages, state));

  const req: ModelRequest = { model, messages, stream: optionalBoolean(b, 'stream', 'request') ?? true };
  if (system.length > 0) req.system = system.join('\n');
  const tools = decodeFunctionTools(b.tools, true);
  if (tools !== undefined) req.tools = tools;
  if (b.options !== undefined && b.options !== null) decodeOptions(expectObject(b.options, 'options'), req);
  decodeFormatAndThink(b, req);
  return req;
}

function decodeMessage(raw: unknown, path: string, system: string[], out: ModelMessage[], state: DecodeState): void {
  const m = expectObject(raw, path);
  const role = expectString(m.role, `${path}.role`);
  const text = optionalString(m, 'content', path) ?? '';
  switch (role) {
    case 'system':
      system.push(text);
      return;
    case 'user': {
      const content: ContentPart[] = [];
      const images = decodeImages(m.images, `${path}.images`);
      if (text !== '' || images.length === 0) content.push({ type: 'text', text });
      content.push(...images);
      out.push({ role: 'user', content });
      return;
    }
    case 'assistant': {
      // The model's own reasoning from this turn, where the gateway gave it to the caller (thinking.ts).
      const reasoning = ollamaMessageReasoning(m);
      const content: ContentPart[] = text === '' ? [...reasoning.leading] : [...reasoning.leading, { type: 'text', text }];
      state.unanswered = [];
      if (m.tool_calls !== undefined && m.tool_calls !== null) {
        expectArray(m.tool_calls, `${path}.tool_calls`).forEach((tc, j) => {
          const part = decodeToolCall(tc, `${path}.tool_calls[${j}]`, state);
          content.push(...(reasoning.beforeCall[j] ?? []), part);
          state.unanswered.push(part);
        });
      }
      if (content.length > 0) out.push({ role: 'assistant', content });
      return;
    }
    case 'tool': {
      const name = optionalString(m, 'tool_name', path) ?? optionalString(m, 'name', path);
      const explicit = optionalString(m, 'tool_call_id', path);
      const toolCallId = answeredCallId(explicit === undefined ? undefined : plainCallId(explicit), name, state);
      const part: ContentPart = { type: 'tool_result', toolCallId, content: text, isError: false };
      if (name !== undefined) part.name = name;
      out.push({ role: 'tool', content: [part] });
      return;
    }
    default:
      throw invalidRequest(`${path}.role "${role}" is not one of system, user, assistant, tool`);
  }
}

function decodeImages(raw: unknown, path: string): ContentPart[] {
  if (raw === undefined || raw === null) return [];
  return expectArray(raw, path).map((v, i) => {
    const data = expectString(v, `${path}[${i}]`);
    return { type: 'image', data, mediaType: mediaTypeOfBase64(data) };
  });
}

function decodeToolCall(raw: unknown, path: string, state: DecodeState): ToolCallPart {
  const tc = expectObject(raw, path);
  const fn = expectObject(tc.function, `${path}.function`);
  const n = state.nextCallId++;
  return {
    type: 'tool_call',
    id: plainCallId(optionalString(tc, 'id', path) ?? `call_${n}`),
    name: expectString(fn.name, `${path}.function.name`),
    arguments: argumentsText(fn.arguments),
  };
}

/** The call a tool message answers: its explicit id, else the first unanswered call of that name, else the next one. */
function answeredCallId(explicit: string | undefined, name: string | undefined, state: DecodeState): string {
  const pending = state.unanswered;
  let at = explicit !== undefined ? pending.findIndex((c) => c.id === explicit) : -1;
  if (explicit === undefined) {
    at = name !== undefined ? pending.findIndex((c) => c.name === name) : -1;
    if (at === -1 && pending.length > 0) at = 0;
  }
  const answered = at === -1 ? undefined : pending.splice(at, 1)[0];
  if (answered !== undefined) return answered.id;
  return explicit ?? `call_${state.nextCallId++}`;
}

export function decodeOptions(o: JsonObject, req: ModelRequest): void {
  const numPredict = o.num_predict;
  if (numPredict !== undefined && numPredict !== null) {
    // -1 is "no limit" and -2 "fill the context": both mean no max_tokens.
    if (typeof numPredict !== 'number' || !Number.isSafeInteger(numPredict) || numPredict === 0 || numPredict < -2) {
      throw invalidRequest(`options.num_predict must be a positive integer, -1 or -2, got ${JSON.stringify(numPredict)}`);
    }
    if (numPredict > 0) req.maxTokens = numPredict;
  }
  decodeSampling(o, CHAT_SAMPLING, 'options', req);
  const stop = o.stop;
  if (typeof stop === 'string') req.stop = [stop];
  else if (stop !== undefined && stop !== null) req.stop = expectArray(stop, 'options.stop').map((s, i) => expectString(s, `options.stop[${i}]`));
}

// ---------------------------------------------------------------------------------------------
// Upstream: model -> lane's body
// ---------------------------------------------------------------------------------------------

export function encodeRequest(req: ModelRequest, upstreamModel: string): EncodedUpstreamRequest {
  refuseUntranslatable(req, 'ollama');
  const messages: JsonObject[] = [];
  if (req.system !== undefined) messages.push({ role: 'system', content: req.system });
  const callNames = new Map<string, string>();
  for (const m of req.messages) appendMessage(messages, m, callNames);

  const body: JsonObject = { model: upstreamModel, messages };
  const tools = toolsForChoice(req);
  if (tools !== undefined) {
    body.tools = tools.map((t) => ({
      type: 'function',
      function:
        t.description === undefined ? { name: t.name, parameters: t.parameters } : { name: t.name, description: t.description, parameters: t.parameters },
    }));
  }
  const options: JsonObject = {};
  if (req.maxTokens !== undefined) options.num_predict = req.maxTokens;
  if (req.temperature !== undefined) options.temperature = req.temperature;
  if (req.topP !== undefined) options.top_p = req.topP;
  if (req.stop !== undefined && req.stop.length > 0) options.stop = req.stop;
  if (Object.keys(options).length > 0) body.options = options;
  encodeFormatAndThink(req, body);
  // Written always: Ollama's default is to stream.
  body.stream = req.stream;
  return { path: CHAT_PATH, body: JSON.stringify(body) };
}

function appendMessage(out: JsonObject[], m: ModelMessage, callNames: Map<string, string>): void {
  const texts: string[] = [];
  const images: string[] = [];
  const toolCalls: JsonObject[] = [];
  let thinking = '';
  for (const part of m.content) {
    switch (part.type) {
      case 'reasoning':
        // `thinking` is the ollama family's own; another family's reasoning only its family reads: dropped.
        if (part.family === 'ollama') thinking += part.text;
        break;
      case 'text':
        texts.push(part.text);
        break;
      case 'image':
        images.push(imageBase64(part));
        break;
      case 'file': {
        const text = inlineFileText(part);
        if (text === undefined) refusePart(describeSource('file', part), 'ollama', 'Ollama chat takes text and base64 images only');
        texts.push(text);
        break;
      }
      case 'unsupported':
        break; // refused before (refuseUntranslatable)
      case 'tool_call':
        callNames.set(part.id, part.name);
        toolCalls.push({ id: part.id, function: { name: part.name, arguments: argumentsObject(part.arguments, part.id, 'invalid_request') } });
        break;
      case 'tool_result': {
        const msg: JsonObject = { role: 'tool', content: part.content };
        const name = part.name ?? callNames.get(part.toolCallId);
        if (name !== undefined) msg.tool_name = name;
        msg.tool_call_id = part.toolCallId;
        out.push(msg);
        break;
      }
    }
  }
  if (m.role === 'tool') return;
  if (texts.length === 0 && images.length === 0 && toolCalls.length === 0 && thinking === '') return;
  const msg: JsonObject = { role: m.role, content: texts.join('\n') };
  if (images.length > 0 && m.role !== 'user') refusePart('"image" in an assistant turn', 'ollama', 'only user turns carry images');
  if (images.length > 0) msg.images = images;
  if (m.role === 'assistant' && thinking !== '') msg.thinking = thinking;
  if (m.role === 'assistant' && toolCalls.length > 0) msg.tool_calls = toolCalls;
  out.push(msg);
}

/** Ollama images are bare base64: inline data or a data: URL; a remote URL cannot be carried. */
function imageBase64(part: ImagePart): string {
  if (part.data !== undefined) return part.data;
  const inline = part.url !== undefined ? splitDataUrl(part.url) : undefined;
  if (inline !== undefined) return inline.data;
  return refusePart(describeSource('image', part), 'ollama', 'Ollama images are base64 data, not URLs (the gateway does not fetch them)');
}
