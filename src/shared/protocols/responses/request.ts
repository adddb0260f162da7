// Responses request body <-> model request. `input` is a list of items: messages,
// function_call and function_call_output; `instructions` is the system prompt. The Responses
// API has no stop sequences, so a request with `stop` is refused on a hop into it.
import type { ContentPart, FilePart, ModelMessage, ModelRequest, TextPart, ToolChoice, ToolDef } from '../../model/types.js';
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
import { imageFromUrl, imageToUrl } from '../openai/image-url.js';
import { requiredModel } from '../request-members.js';
import { splitDataUrl } from '../framing/body-fields.js';
import { CHAT_SAMPLING, decodeSampling } from '../sampling.js';
import { defaultFileName, inlineFileText } from '../file-parts.js';
import { untranslatableResponsesSettings } from '../openai/settings.js';
import {
  decodeResponsesReasoning,
  decodeResponsesTextFormat,
  encodeResponsesReasoning,
  encodeResponsesTextFormat,
  hasCacheBreakpoint,
} from '../openai/request-settings.js';
import { describeSource, isHttpUrl, mediaTypeOfUrl, refuseParameter, refusePart, refuseUntranslatable } from '../refusal.js';
import { partsOfReasoningItem, reasoningInputItem } from './reasoning.js';

export const RESPONSES_PATH = '/responses';

// ---------------------------------------------------------------------------------------------
// Ingress: caller's body -> model
// ---------------------------------------------------------------------------------------------

export function decodeRequest(body: unknown): ModelRequest {
  const b = expectObject(body, 'request body');
  const model = requiredModel(b);
  if (b.input === undefined || b.input === null) throw invalidRequest('input is required');

  const system: string[] = [];
  const instructions = optionalString(b, 'instructions', 'request');
  if (instructions !== undefined) system.push(instructions);
  const messages: ModelMessage[] = [];
  const systemCache = { marked: false };
  if (typeof b.input === 'string') {
    messages.push({ role: 'user', content: [{ type: 'text', text: b.input }] });
  } else {
    const ids = { next: 0 };
    expectArray(b.input, 'input').forEach((item, i) => decodeItem(item, `input[${i}]`, system, messages, ids, systemCache));
  }

  const req: ModelRequest = { model, messages, stream: optionalBoolean(b, 'stream', 'request') ?? false };
  if (system.length > 0) req.system = system.join('\n');
  if (systemCache.marked) req.systemCache = {};
  const tools = decodeTools(b.tools);
  if (tools !== undefined) req.tools = tools;
  const toolChoice = decodeToolChoice(b.tool_choice);
  if (toolChoice !== undefined) req.toolChoice = toolChoice;
  const maxTokens = optionalInteger(b, 'max_output_tokens', 'request', 1);
  if (maxTokens !== undefined) req.maxTokens = maxTokens;
  decodeSampling(b, CHAT_SAMPLING, 'request', req);
  const responseFormat = decodeResponsesTextFormat(b.text);
  if (responseFormat !== undefined) req.responseFormat = responseFormat;
  const reasoning = decodeResponsesReasoning(b.reasoning);
  if (reasoning !== undefined) req.reasoning = reasoning;
  const parallel = optionalBoolean(b, 'parallel_tool_calls', 'request');
  if (parallel !== undefined) req.parallelToolCalls = parallel;
  const untranslatable = untranslatableResponsesSettings(b);
  if (untranslatable.length > 0) req.untranslatable = untranslatable;
  return req;
}

function decodeItem(raw: unknown, path: string, system: string[], out: ModelMessage[], ids: { next: number }, systemCache: { marked: boolean }): void {
  const item = expectObject(raw, path);
  const type = item.type ?? (item.role !== undefined ? 'message' : undefined);
  switch (type) {
    case 'message':
      decodeMessageItem(item, path, system, out, systemCache);
      return;
    case 'function_call': {
      const n = ids.next++;
      const part: ContentPart = {
        type: 'tool_call',
        id: optionalString(item, 'call_id', path) ?? `call_${n}`,
        name: expectString(item.name, `${path}.name`),
        arguments: item.arguments === undefined || item.arguments === null ? '' : expectString(item.arguments, `${path}.arguments`),
      };
      // A function_call follows the assistant message it belongs to.
      const last = out[out.length - 1];
      if (last !== undefined && last.role === 'assistant') last.content.push(part);
      else out.push({ role: 'assistant', content: [part] });
      return;
    }
    case 'function_call_output':
      out.push({
        role: 'tool',
        content: [
          {
            type: 'tool_result',
            toolCallId: expectString(item.call_id, `${path}.call_id`),
            content: flattenText(item.output, `${path}.output`),
            isError: false,
          },
        ],
      });
      return;
    case 'reasoning': {
      // The model's own reasoning from an earlier turn: it opens the assistant turn it belongs to.
      const parts = partsOfReasoningItem(item);
      const last = out[out.length - 1];
      if (last !== undefined && last.role === 'assistant') last.content.push(...parts);
      else if (parts.length > 0) out.push({ role: 'assistant', content: parts });
      return;
    }
    case undefined:
      throw invalidRequest(`${path}.type is required`);
    default:
      if (typeof type !== 'string') throw invalidRequest(`${path}.type must be a string`);
    // item_reference, hosted tool calls...: not in the modeled subset
  }
}

function decodeMessageItem(item: JsonObject, path: string, system: string[], out: ModelMessage[], systemCache: { marked: boolean }): void {
  const role = expectString(item.role, `${path}.role`);
  switch (role) {
    case 'system':
    case 'developer':
      system.push(flattenText(item.content, `${path}.content`));
      if (Array.isArray(item.content) && item.content.some((p) => isJsonObject(p) && hasCacheBreakpoint(p))) systemCache.marked = true;
      return;
    case 'user':
    case 'assistant': {
      const content = decodeContent(item.content, `${path}.content`);
      const last = out[out.length - 1];
      // An assistant message after its reasoning item is the same turn.
      if (role === 'assistant' && last !== undefined && last.role === 'assistant' && last.content[last.content.length - 1]?.type === 'reasoning') {
        last.content.push(...content);
      } else if (content.length > 0) out.push({ role, content });
      return;
    }
    default:
      throw invalidRequest(`${path}.role "${role}" is not one of user, assistant, system, developer`);
  }
}

/** Content that may be a string or a list of text parts, as one string. */
function flattenText(content: unknown, path: string): string {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  const texts: string[] = [];
  expectArray(content, path).forEach((p, i) => {
    const part = expectObject(p, `${path}[${i}]`);
    if (isTextType(part.type)) texts.push(expectString(part.text, `${path}[${i}].text`));
  });
  return texts.join('\n');
}

function isTextType(type: unknown): boolean {
  return type === 'input_text' || type === 'output_text' || type === 'text';
}

function decodeContent(content: unknown, path: string): ContentPart[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  const parts: ContentPart[] = [];
  expectArray(content, path).forEach((p, i) => {
    const part = expectObject(p, `${path}[${i}]`);
    const before = parts.length;
    decodeContentPart(part, `${path}[${i}]`, parts);
    const made = parts[before];
    if (made !== undefined && made.type !== 'unsupported' && hasCacheBreakpoint(part)) made.cache = {};
  });
  return parts;
}

function decodeContentPart(part: JsonObject, at: string, parts: ContentPart[]): void {
  if (isTextType(part.type)) {
    parts.push({ type: 'text', text: expectString(part.text, `${at}.text`) });
  } else if (part.type === 'refusal') {
    parts.push({ type: 'text', text: expectString(part.refusal, `${at}.refusal`) });
  } else if (part.type === 'input_image') {
    const url = optionalString(part, 'image_url', at);
    parts.push(url !== undefined ? imageFromUrl(url) : { type: 'unsupported', what: 'input_image (file_id)' });
  } else if (part.type === 'input_file') {
    parts.push(decodeInputFile(part, at));
  } else if (typeof part.type !== 'string') {
    throw invalidRequest(`${at}.type must be a string`);
  } else {
    parts.push({ type: 'unsupported', what: part.type }); // input_audio...: refused cross-protocol
  }
}

/** `input_file`: inline (`file_data`, a data URL), by `file_url`, or an id in OpenAI's store. */
function decodeInputFile(part: JsonObject, path: string): ContentPart {
  const name = optionalString(part, 'filename', path);
  const data = optionalString(part, 'file_data', path);
  const url = optionalString(part, 'file_url', path);
  let file: FilePart;
  if (data !== undefined) {
    const inline = splitDataUrl(data);
    if (inline === undefined) throw invalidRequest(`${path}.file_data must be a base64 data: URL`);
    file = { type: 'file', ...inline };
  } else if (url !== undefined) {
    file = { type: 'file', url };
    const mediaType = mediaTypeOfUrl(url);
    if (mediaType !== undefined) file.mediaType = mediaType;
  } else {
    return { type: 'unsupported', what: 'input_file (file_id)' };
  }
  if (name !== undefined) file.name = name;
  return file;
}

function decodeTools(raw: unknown): ToolDef[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  const tools: ToolDef[] = [];
  expectArray(raw, 'tools').forEach((t, i) => {
    const tool = expectObject(t, `tools[${i}]`);
    if (tool.type !== 'function') return; // hosted tools (web_search, file_search...): not modeled
    const def: ToolDef = {
      name: expectString(tool.name, `tools[${i}].name`),
      parameters:
        tool.parameters === undefined || tool.parameters === null
          ? { type: 'object', properties: {} }
          : expectObject(tool.parameters, `tools[${i}].parameters`),
    };
    const description = optionalString(tool, 'description', `tools[${i}]`);
    if (description !== undefined) def.description = description;
    tools.push(def);
  });
  return tools;
}

function decodeToolChoice(raw: unknown): ToolChoice | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (raw === 'auto' || raw === 'none' || raw === 'required') return { type: raw };
  if (typeof raw === 'string') throw invalidRequest(`tool_choice "${raw}" is not one of auto, none, required`);
  const choice = expectObject(raw, 'tool_choice');
  if (choice.type === 'function') return { type: 'tool', name: expectString(choice.name, 'tool_choice.name') };
  return undefined; // allowed_tools, hosted tools: not modeled
}

// ---------------------------------------------------------------------------------------------
// Upstream: model -> lane's body
// ---------------------------------------------------------------------------------------------

export function encodeRequest(req: ModelRequest, upstreamModel: string): EncodedUpstreamRequest {
  refuseUntranslatable(req, 'responses');
  if (req.stop !== undefined && req.stop.length > 0) refuseParameter('stop sequences', 'responses', 'the Responses API has none');
  const input: JsonObject[] = [];
  for (const m of req.messages) appendItems(input, m);
  const body: JsonObject = { model: upstreamModel };
  if (req.system !== undefined) body.instructions = req.system;
  body.input = input;
  if (req.tools !== undefined && req.tools.length > 0) {
    // strict defaults to true on this API; the model's tools carry no strictness, so say so.
    body.tools = req.tools.map((t) =>
      t.description === undefined
        ? { type: 'function', name: t.name, parameters: t.parameters, strict: false }
        : { type: 'function', name: t.name, description: t.description, parameters: t.parameters, strict: false },
    );
  }
  if (req.toolChoice !== undefined) {
    body.tool_choice = req.toolChoice.type === 'tool' ? { type: 'function', name: req.toolChoice.name } : req.toolChoice.type;
  }
  if (req.parallelToolCalls !== undefined && body.tools !== undefined) body.parallel_tool_calls = req.parallelToolCalls;
  if (req.responseFormat !== undefined) body.text = { format: encodeResponsesTextFormat(req.responseFormat) };
  if (req.reasoning !== undefined) body.reasoning = encodeResponsesReasoning(req.reasoning);
  if (req.maxTokens !== undefined) body.max_output_tokens = req.maxTokens;
  if (req.temperature !== undefined) body.temperature = req.temperature;
  if (req.topP !== undefined) body.top_p = req.topP;
  body.stream = req.stream;
  return { path: RESPONSES_PATH, body: JSON.stringify(body) };
}

/** One model message -> input items, in part order (consecutive text/image parts share a message item). */
function appendItems(out: JsonObject[], m: ModelMessage): void {
  let pending: JsonObject[] = [];
  let pendingTexts: TextPart[] = [];
  const flush = (): void => {
    if (pending.length === 0) return;
    if (m.role === 'user') {
      const single = pending.length === 1 && pendingTexts.length === 1;
      out.push({ type: 'message', role: 'user', content: single ? pendingTexts[0]!.text : pending });
    } else if (m.role === 'assistant' && pending.length > pendingTexts.length) {
      refusePart('"image" or "file" in an assistant turn', 'responses', 'only user turns carry images and files');
    } else if (m.role === 'assistant' && pendingTexts.length > 0) {
      out.push({
        type: 'message',
        role: 'assistant',
        content: pendingTexts.length === 1 ? pendingTexts[0]!.text : pendingTexts.map((t) => ({ type: 'output_text', text: t.text, annotations: [] })),
      });
    }
    pending = [];
    pendingTexts = [];
  };
  for (const part of m.content) {
    switch (part.type) {
      case 'text':
        pending.push({ type: 'input_text', text: part.text });
        pendingTexts.push(part);
        break;
      case 'image': {
        const url = imageToUrl(part, 'responses');
        if (url !== undefined) pending.push({ type: 'input_image', image_url: url, detail: 'auto' });
        break;
      }
      case 'file': {
        const text = inlineFileText(part);
        if (text === undefined) pending.push(encodeInputFile(part));
        else {
          pending.push({ type: 'input_text', text });
          pendingTexts.push({ type: 'text', text });
        }
        break;
      }
      case 'unsupported':
        break; // refused before (refuseUntranslatable)
      case 'reasoning': {
        const item = reasoningInputItem(part);
        if (item !== undefined) {
          flush();
          out.push(item);
        }
        break;
      }
      case 'tool_call':
        flush();
        out.push({ type: 'function_call', call_id: part.id, name: part.name, arguments: part.arguments });
        break;
      case 'tool_result':
        flush();
        out.push({ type: 'function_call_output', call_id: part.toolCallId, output: part.content });
        break;
    }
  }
  flush();
}

/** `input_file` takes a PDF inline (a data URL) or by http(s) `file_url`. */
function encodeInputFile(part: FilePart): JsonObject {
  const pdf = part.mediaType === undefined || part.mediaType === 'application/pdf';
  if (pdf && part.data !== undefined && part.mediaType !== undefined) {
    return { type: 'input_file', filename: part.name ?? defaultFileName(part.mediaType), file_data: `data:${part.mediaType};base64,${part.data}` };
  }
  if (pdf && part.url !== undefined && isHttpUrl(part.url)) return { type: 'input_file', file_url: part.url };
  return refusePart(describeSource('file', part), 'responses', 'input_file takes a PDF inline or by http(s) file_url');
}
