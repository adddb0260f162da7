// Chat Completions request body <-> model request.
import type { ContentPart, FilePart, ModelMessage, ModelRequest, TextPart, ToolCallPart, ToolChoice, ToolResultPart } from '../../model/types.js';
import type { EncodedUpstreamRequest } from '../codec.js';
import {
  expectArray,
  expectObject,
  expectString,
  isJsonObject,
  optionalBoolean,
  optionalInteger,
  optionalString,
  type JsonObject,
} from '../framing/json-field.js';
import { invalidRequest } from '../invalid-request.js';
import { imageFromUrl, imageToUrl } from './image-url.js';
import { requiredMessages, requiredModel } from '../request-members.js';
import { splitDataUrl } from '../framing/body-fields.js';
import { decodeFunctionTools } from '../function-tools.js';
import { describeSource, refusePart, refuseUntranslatable } from '../refusal.js';
import { untranslatableChatSettings } from './settings.js';
import { chatReasoningEffort, decodeChatResponseFormat, decodeEffort, encodeChatResponseFormat, hasCacheBreakpoint } from './request-settings.js';
import { CHAT_SAMPLING, decodeSampling } from '../sampling.js';
import { defaultFileName, inlineFileText } from '../file-parts.js';
import { plainCallId } from '../reasoning/call-id.js';
import { chatMessageReasoning } from './reasoning.js';

export const CHAT_PATH = '/chat/completions';

// ---------------------------------------------------------------------------------------------
// Ingress: caller's body -> model
// ---------------------------------------------------------------------------------------------

export function streamUsageRequested(body: unknown): boolean {
  return isJsonObject(body) && isJsonObject(body.stream_options) && body.stream_options.include_usage === true;
}

export function decodeRequest(body: unknown): ModelRequest {
  const b = expectObject(body, 'request body');
  const model = requiredModel(b);
  const rawMessages = requiredMessages(b);

  const system: string[] = [];
  const messages: ModelMessage[] = [];
  const ids = { next: 0 };
  const systemCache = { marked: false };
  rawMessages.forEach((raw, i) => decodeMessage(raw, `messages[${i}]`, system, messages, ids, systemCache));

  const req: ModelRequest = { model, messages, stream: optionalBoolean(b, 'stream', 'request') ?? false };
  if (system.length > 0) req.system = system.join('\n');
  if (systemCache.marked) req.systemCache = {};
  const tools = decodeFunctionTools(b.tools, false);
  if (tools !== undefined) req.tools = tools;
  const toolChoice = decodeToolChoice(b.tool_choice);
  if (toolChoice !== undefined) req.toolChoice = toolChoice;
  // max_completion_tokens replaced max_tokens; a caller may send either.
  const maxTokens = optionalInteger(b, 'max_completion_tokens', 'request', 1) ?? optionalInteger(b, 'max_tokens', 'request', 1);
  if (maxTokens !== undefined) req.maxTokens = maxTokens;
  decodeSampling(b, CHAT_SAMPLING, 'request', req);
  const stop = decodeStop(b.stop);
  if (stop !== undefined) req.stop = stop;
  const responseFormat = decodeChatResponseFormat(b.response_format);
  if (responseFormat !== undefined) req.responseFormat = responseFormat;
  const effort = decodeEffort(b.reasoning_effort, 'reasoning_effort');
  if (effort !== undefined) req.reasoning = { effort };
  const parallel = optionalBoolean(b, 'parallel_tool_calls', 'request');
  if (parallel !== undefined) req.parallelToolCalls = parallel;
  const untranslatable = untranslatableChatSettings(b);
  if (untranslatable.length > 0) req.untranslatable = untranslatable;
  return req;
}

function decodeMessage(raw: unknown, path: string, system: string[], out: ModelMessage[], ids: { next: number }, systemCache: { marked: boolean }): void {
  const m = expectObject(raw, path);
  const role = expectString(m.role, `${path}.role`);
  switch (role) {
    case 'system':
    case 'developer':
      system.push(flattenText(m.content, `${path}.content`));
      if (anyBreakpoint(m.content)) systemCache.marked = true;
      return;
    case 'user': {
      const content = decodeUserContent(m.content, `${path}.content`);
      if (content.length > 0) out.push({ role: 'user', content });
      return;
    }
    case 'assistant': {
      // The model's own reasoning from this turn, where the gateway gave it to the caller (reasoning.ts).
      const reasoning = chatMessageReasoning(m);
      const content: ContentPart[] = [...reasoning.leading, ...decodeAssistantText(m.content, `${path}.content`)];
      if (m.tool_calls !== undefined && m.tool_calls !== null) {
        expectArray(m.tool_calls, `${path}.tool_calls`).forEach((tc, j) => {
          const part = decodeToolCall(tc, `${path}.tool_calls[${j}]`, ids);
          if (part) content.push(...(reasoning.beforeCall[j] ?? []), part);
        });
      }
      if (content.length > 0) out.push({ role: 'assistant', content });
      return;
    }
    case 'tool': {
      const toolCallId = plainCallId(expectString(m.tool_call_id, `${path}.tool_call_id`));
      const content = flattenText(m.content, `${path}.content`);
      const result: ToolResultPart = { type: 'tool_result', toolCallId, content, isError: false };
      if (anyBreakpoint(m.content)) result.cache = {};
      out.push({ role: 'tool', content: [result] });
      return;
    }
    case 'function':
      // The deprecated function-calling role: not modeled; refused cross-protocol, never dropped.
      out.push({ role: 'user', content: [{ type: 'unsupported', what: 'function role message' }] });
      return;
    default:
      throw invalidRequest(`${path}.role "${role}" is not one of system, developer, user, assistant, tool`);
  }
}

/** Whether an array content marks a prompt-cache breakpoint on any of its parts. */
function anyBreakpoint(content: unknown): boolean {
  return Array.isArray(content) && content.some((p) => isJsonObject(p) && hasCacheBreakpoint(p));
}

/** The part with a cache marker when the wire part carries a breakpoint. */
function marked<T extends ContentPart>(part: T, wire: JsonObject): T {
  if (hasCacheBreakpoint(wire) && part.type !== 'unsupported') (part as Exclude<ContentPart, { type: 'unsupported' }>).cache = {};
  return part;
}

/** Content that may be a string or an array of text parts, as one string. */
function flattenText(content: unknown, path: string): string {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  const texts: string[] = [];
  expectArray(content, path).forEach((p, i) => {
    const part = expectObject(p, `${path}[${i}]`);
    if (part.type === 'text') texts.push(expectString(part.text, `${path}[${i}].text`));
  });
  return texts.join('\n');
}

function decodeUserContent(content: unknown, path: string): ContentPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (content === undefined || content === null) throw invalidRequest(`${path} is required`);
  const parts: ContentPart[] = [];
  expectArray(content, path).forEach((p, i) => {
    const part = expectObject(p, `${path}[${i}]`);
    if (part.type === 'text') {
      parts.push(marked({ type: 'text', text: expectString(part.text, `${path}[${i}].text`) }, part));
    } else if (part.type === 'image_url') {
      // Some clients send the URL string itself instead of {url, detail}.
      const url =
        typeof part.image_url === 'string'
          ? part.image_url
          : expectString(expectObject(part.image_url, `${path}[${i}].image_url`).url, `${path}[${i}].image_url.url`);
      parts.push(marked(imageFromUrl(url), part));
    } else if (part.type === 'file') {
      parts.push(marked(decodeFile(expectObject(part.file, `${path}[${i}].file`), `${path}[${i}].file`), part));
    } else if (typeof part.type !== 'string') {
      throw invalidRequest(`${path}[${i}].type must be a string`);
    } else {
      parts.push({ type: 'unsupported', what: part.type }); // input_audio...: refused cross-protocol
    }
  });
  return parts;
}

/** A chat `file` part: inline as a data URL (`file_data`), or an id in OpenAI's own store. */
function decodeFile(file: JsonObject, path: string): ContentPart {
  const name = optionalString(file, 'filename', path);
  const data = optionalString(file, 'file_data', path);
  if (data === undefined) return { type: 'unsupported', what: 'file (file_id)' }; // lives in OpenAI's store
  const inline = splitDataUrl(data);
  if (inline === undefined) throw invalidRequest(`${path}.file_data must be a base64 data: URL`);
  return name === undefined ? { type: 'file', ...inline } : { type: 'file', ...inline, name };
}

function decodeAssistantText(content: unknown, path: string): ContentPart[] {
  if (content === undefined || content === null || content === '') return [];
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  const parts: ContentPart[] = [];
  expectArray(content, path).forEach((p, i) => {
    const part = expectObject(p, `${path}[${i}]`);
    if (part.type === 'text') parts.push(marked({ type: 'text', text: expectString(part.text, `${path}[${i}].text`) }, part));
    else if (part.type === 'refusal') parts.push({ type: 'text', text: expectString(part.refusal, `${path}[${i}].refusal`) });
  });
  return parts;
}

function decodeToolCall(raw: unknown, path: string, ids: { next: number }): ToolCallPart | undefined {
  const tc = expectObject(raw, path);
  const n = ids.next++;
  if (tc.type !== undefined && tc.type !== 'function') return undefined; // custom tools: not modeled
  const fn = expectObject(tc.function, `${path}.function`);
  const name = expectString(fn.name, `${path}.function.name`);
  const id = plainCallId(optionalString(tc, 'id', path) ?? `call_${n}`);
  return { type: 'tool_call', id, name, arguments: argumentsText(fn.arguments, `${path}.function.arguments`) };
}

/** Tool arguments are JSON text on this wire; a client that sent an object gets it serialized. */
function argumentsText(v: unknown, path: string): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (isJsonObject(v)) return JSON.stringify(v);
  throw invalidRequest(`${path} must be a JSON string`);
}

function decodeToolChoice(raw: unknown): ToolChoice | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (raw === 'auto' || raw === 'none' || raw === 'required') return { type: raw };
  if (typeof raw === 'string') throw invalidRequest(`tool_choice "${raw}" is not one of auto, none, required`);
  const choice = expectObject(raw, 'tool_choice');
  if (choice.type === 'function') {
    const fn = expectObject(choice.function, 'tool_choice.function');
    return { type: 'tool', name: expectString(fn.name, 'tool_choice.function.name') };
  }
  return undefined; // allowed_tools, custom: not modeled
}

function decodeStop(raw: unknown): string[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw === 'string') return [raw];
  return expectArray(raw, 'stop').map((s, i) => expectString(s, `stop[${i}]`));
}

// ---------------------------------------------------------------------------------------------
// Upstream: model -> lane's body
// ---------------------------------------------------------------------------------------------

export function encodeRequest(req: ModelRequest, upstreamModel: string): EncodedUpstreamRequest {
  refuseUntranslatable(req, 'openai');
  const messages: JsonObject[] = [];
  if (req.system !== undefined) messages.push({ role: 'system', content: req.system });
  for (const m of req.messages) appendMessage(messages, m);

  const body: JsonObject = { model: upstreamModel, messages };
  if (req.tools !== undefined && req.tools.length > 0) {
    body.tools = req.tools.map((t) => ({
      type: 'function',
      function:
        t.description === undefined ? { name: t.name, parameters: t.parameters } : { name: t.name, description: t.description, parameters: t.parameters },
    }));
  }
  if (req.toolChoice !== undefined) {
    body.tool_choice = req.toolChoice.type === 'tool' ? { type: 'function', function: { name: req.toolChoice.name } } : req.toolChoice.type;
  }
  // Only with tools: OpenAI refuses parallel_tool_calls on a request without any.
  if (req.parallelToolCalls !== undefined && body.tools !== undefined) body.parallel_tool_calls = req.parallelToolCalls;
  if (req.responseFormat !== undefined) body.response_format = encodeChatResponseFormat(req.responseFormat);
  if (req.reasoning !== undefined) body.reasoning_effort = chatReasoningEffort(req.reasoning);
  // max_tokens, not max_completion_tokens: the compatible hosts this protocol covers (vLLM,
  // llama.cpp, Mistral, Groq...) all read max_tokens. With reasoning settings the lane is a
  // reasoning model, and OpenAI's refuse max_tokens: max_completion_tokens (which counts the
  // reasoning too, as other protocols' max tokens do).
  if (req.maxTokens !== undefined) body[req.reasoning === undefined ? 'max_tokens' : 'max_completion_tokens'] = req.maxTokens;
  if (req.temperature !== undefined) body.temperature = req.temperature;
  if (req.topP !== undefined) body.top_p = req.topP;
  if (req.stop !== undefined && req.stop.length > 0) body.stop = req.stop;
  body.stream = req.stream;
  // Streams carry usage only when asked; the gateway always meters.
  if (req.stream) body.stream_options = { include_usage: true };
  return { path: CHAT_PATH, body: JSON.stringify(body) };
}

/** One model message -> one or more chat messages (each tool result is its own `tool` message). */
function appendMessage(out: JsonObject[], m: ModelMessage): void {
  const texts: TextPart[] = [];
  const userParts: JsonObject[] = [];
  const toolCalls: JsonObject[] = [];
  let reasoningContent = '';
  for (const part of m.content) {
    switch (part.type) {
      case 'reasoning':
        // reasoning_content is the openai family's own (DeepSeek wants it back on tool turns);
        // another family's reasoning only its family reads: dropped.
        if (part.family === 'openai') reasoningContent += part.text;
        break;
      case 'tool_result':
        out.push({ role: 'tool', tool_call_id: part.toolCallId, content: part.content });
        break;
      case 'text':
        texts.push(part);
        userParts.push({ type: 'text', text: part.text });
        break;
      case 'image': {
        const url = imageToUrl(part, 'openai');
        if (url !== undefined) userParts.push({ type: 'image_url', image_url: { url } });
        break;
      }
      case 'file': {
        const text = inlineFileText(part);
        if (text === undefined) userParts.push(encodeFile(part));
        else {
          texts.push({ type: 'text', text });
          userParts.push({ type: 'text', text });
        }
        break;
      }
      case 'unsupported':
        break; // refused before (refuseUntranslatable)
      case 'tool_call':
        toolCalls.push({ id: part.id, type: 'function', function: { name: part.name, arguments: part.arguments } });
        break;
    }
  }
  if (m.role !== 'user' && userParts.length > texts.length) {
    refusePart('"image" or "file" in an assistant turn', 'openai', 'only user turns carry images and files');
  }
  if (m.role === 'user') {
    if (userParts.length === 0) return;
    const single = userParts.length === 1 && texts.length === 1;
    out.push({ role: 'user', content: single ? texts[0]!.text : userParts });
  } else if (m.role === 'assistant') {
    if (texts.length === 0 && toolCalls.length === 0) return;
    const msg: JsonObject = { role: 'assistant', content: assistantContent(texts) };
    if (reasoningContent !== '') msg.reasoning_content = reasoningContent;
    if (toolCalls.length > 0) msg.tool_calls = toolCalls;
    out.push(msg);
  } // role 'tool': its tool results were written above
}

/** Chat file parts take a PDF inline (a data URL) or an id in OpenAI's store, never a URL. */
function encodeFile(part: FilePart): JsonObject {
  if (part.data === undefined || part.mediaType !== 'application/pdf') {
    refusePart(describeSource('file', part), 'openai', 'Chat Completions file parts take PDF data inline (or an OpenAI file id), not a URL or another type');
  }
  return { type: 'file', file: { filename: part.name ?? defaultFileName(part.mediaType), file_data: `data:${part.mediaType};base64,${part.data}` } };
}

function assistantContent(texts: TextPart[]): unknown {
  if (texts.length === 0) return null;
  if (texts.length === 1) return texts[0]!.text;
  return texts.map((t) => ({ type: 'text', text: t.text }));
}
