// Anthropic Messages request <-> the model. Only the modeled subset crosses: fields such as
// top_k and metadata are dropped; thinking blocks are the model's own reasoning, kept for a lane
// of the family that made them (thinking.ts); a content block the model cannot carry (server
// tool blocks, file ids...) is refused on a cross-protocol hop.
// Structured output, thinking settings and cache_control: request-settings.ts.
import { Buffer } from 'node:buffer';
import type { ContentPart, FilePart, ImagePart, ModelMessage, ModelRequest, ToolChoice, ToolDef } from '../../model/types.js';
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
import { argumentsObject, optionalStringArray, splitDataUrl } from '../framing/body-fields.js';
import { describeSource, isHttpUrl, refusePart, refuseUntranslatable, TranslationRefused } from '../refusal.js';
import {
  applyTopLevelCacheControl,
  cacheControl,
  decodeCacheControl,
  decodeOutputAndThinking,
  encodeOutputAndThinking,
  thinkingOn,
} from './request-settings.js';
import { decodeSampling, encodeSampling, type SamplingMembers } from '../sampling.js';
import { TurnRuns, wireTurns, type WireTurn } from '../turns.js';
import { jsonModeTools } from '../json-output-tool.js';
import { partsOfThinkingBlock, thinkingBlockForLane } from './thinking.js';

/** Anthropic requires max_tokens; written when the model carries none. */
const DEFAULT_MAX_TOKENS = 4096;
const ANTHROPIC_VERSION = '2023-06-01';
export const MESSAGES_PATH = '/v1/messages';
/** Anthropic's temperature range is narrower than some callers'. */
const ANTHROPIC_SAMPLING: SamplingMembers = { topP: 'top_p', temperatureMax: 1 };

// ---------------------------------------------------------------- decode (ingress)

export function decodeAnthropicRequest(body: unknown): ModelRequest {
  const o = expectObject(body, 'request body');
  // The beta `thread` is state Anthropic keeps: an Anthropic lane takes it as it is (the
  // caller's bytes); no translation can carry it, so it is refused rather than dropped.
  if (o.thread !== undefined && o.thread !== null) {
    throw new TranslationRefused(
      'parameter',
      "thread cannot be translated to the protocol of the selected model: a thread is state Anthropic keeps; send the conversation's messages, or use a pool of Anthropic lanes",
    );
  }
  const req: ModelRequest = {
    model: expectString(o.model, 'model'),
    messages: decodeMessages(expectArray(o.messages, 'messages')),
    stream: optionalBoolean(o, 'stream', 'request') ?? false,
  };
  const system = decodeSystem(o.system, req);
  if (system !== undefined) req.system = system;
  const maxTokens = optionalInteger(o, 'max_tokens', 'request', 1);
  if (maxTokens !== undefined) req.maxTokens = maxTokens;
  decodeSampling(o, ANTHROPIC_SAMPLING, 'request', req);
  const stop = optionalStringArray(o, 'stop_sequences', 'request');
  if (stop !== undefined) req.stop = stop;
  if (o.tools !== undefined && o.tools !== null) req.tools = decodeTools(expectArray(o.tools, 'tools'));
  if (o.tool_choice !== undefined && o.tool_choice !== null) {
    req.toolChoice = decodeToolChoice(o.tool_choice);
    if (isJsonObject(o.tool_choice) && o.tool_choice.disable_parallel_tool_use === true) req.parallelToolCalls = false;
  }
  decodeOutputAndThinking(o, req);
  const topCache = decodeCacheControl(o.cache_control, 'cache_control');
  if (topCache !== undefined) applyTopLevelCacheControl(topCache, req);
  return req;
}

/** The system blocks' texts joined; a cache_control on any of them marks the whole system prompt. */
function decodeSystem(v: unknown, req: ModelRequest): string | undefined {
  if (v === undefined || v === null || typeof v === 'string') return v ?? undefined;
  const blocks = expectArray(v, 'system');
  const texts: string[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const b = expectObject(blocks[i], `system[${i}]`);
    if (b.type === 'text') texts.push(expectString(b.text, `system[${i}].text`));
    const marker = decodeCacheControl(b.cache_control, `system[${i}].cache_control`);
    if (marker !== undefined) req.systemCache = marker;
  }
  return texts.join('\n');
}

function decodeMessages(list: unknown[]): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (let i = 0; i < list.length; i++) {
    const m = expectObject(list[i], `messages[${i}]`);
    const path = `messages[${i}]`;
    if (m.role === 'assistant') {
      pushMessage(out, 'assistant', decodeContent(m.content, path, false));
    } else if (m.role === 'user') {
      // Tool results ride in user turns on this wire; the model keeps them in `tool` messages.
      const runs = new TurnRuns(out, true);
      for (const part of decodeContent(m.content, path, true)) runs.add(part);
      runs.end();
    } else {
      throw invalidRequest(`${path}.role must be "user" or "assistant"`);
    }
  }
  return out;
}

function pushMessage(out: ModelMessage[], role: ModelMessage['role'], content: ContentPart[]): void {
  if (content.length > 0) out.push({ role, content });
}

function decodeContent(v: unknown, path: string, fromUser: boolean): ContentPart[] {
  if (typeof v === 'string') return [{ type: 'text', text: v }];
  const blocks = expectArray(v, `${path}.content`);
  const parts: ContentPart[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const bp = `${path}.content[${i}]`;
    const b = expectObject(blocks[i], bp);
    const before = parts.length;
    decodeBlock(b, bp, fromUser, parts);
    const marker = decodeCacheControl(b.cache_control, `${bp}.cache_control`);
    const made = parts[before];
    if (marker !== undefined && made !== undefined && made.type !== 'unsupported' && made.type !== 'reasoning') made.cache = marker;
  }
  return parts;
}

function decodeBlock(b: JsonObject, bp: string, fromUser: boolean, parts: ContentPart[]): void {
  switch (b.type) {
    case 'text':
      parts.push({ type: 'text', text: expectString(b.text, `${bp}.text`) });
      break;
    case 'image':
      parts.push(decodeImage(b.source, `${bp}.source`));
      break;
    case 'document':
      parts.push(decodeDocument(b, bp));
      break;
    case 'tool_use':
      if (!fromUser) {
        parts.push({
          type: 'tool_call',
          id: expectString(b.id, `${bp}.id`),
          name: expectString(b.name, `${bp}.name`),
          arguments: JSON.stringify(b.input ?? {}),
        });
      }
      break;
    case 'tool_result':
      if (fromUser) decodeToolResult(b, bp, parts);
      break;
    case 'thinking':
    case 'redacted_thinking':
      if (!fromUser) parts.push(...partsOfThinkingBlock(b)); // the model's own reasoning from an earlier turn
      break;
    default:
      if (typeof b.type !== 'string') throw invalidRequest(`${bp}.type must be a string`);
      parts.push({ type: 'unsupported', what: b.type }); // server tool blocks...: refused cross-protocol
  }
}

function decodeImage(v: unknown, path: string): ImagePart | ContentPart {
  const src = expectObject(v, path);
  if (src.type === 'base64') {
    return { type: 'image', data: expectString(src.data, `${path}.data`), mediaType: expectString(src.media_type, `${path}.media_type`) };
  }
  if (src.type === 'url') return { type: 'image', url: expectString(src.url, `${path}.url`) };
  return { type: 'unsupported', what: `image (${String(src.type)} source)` }; // file ids live in Anthropic's own store
}

/**
 * A `document` block: a PDF inline or by URL, or plain text. Plain text becomes a text part
 * (the words are the content; every protocol carries them); the title names a file.
 */
function decodeDocument(b: JsonObject, path: string): ContentPart {
  const src = expectObject(b.source, `${path}.source`);
  const title = optionalString(b, 'title', path);
  let file: FilePart;
  if (src.type === 'base64') {
    file = { type: 'file', data: expectString(src.data, `${path}.source.data`), mediaType: expectString(src.media_type, `${path}.source.media_type`) };
  } else if (src.type === 'url') {
    file = { type: 'file', url: expectString(src.url, `${path}.source.url`), mediaType: 'application/pdf' }; // URL documents are PDFs
  } else if (src.type === 'text') {
    const text = expectString(src.data, `${path}.source.data`);
    return { type: 'text', text: title === undefined ? text : `${title}\n\n${text}` };
  } else {
    return { type: 'unsupported', what: `document (${String(src.type)} source)` }; // file ids, content blocks
  }
  if (title !== undefined) file.name = title;
  return file;
}

/**
 * A tool result: its text blocks joined. The model's tool results carry text only, so an
 * image (or any other block) in one is kept as an unsupported part: refused cross-protocol.
 */
function decodeToolResult(b: JsonObject, path: string, out: ContentPart[]): void {
  let content = '';
  let other: string | undefined;
  if (typeof b.content === 'string') {
    content = b.content;
  } else if (b.content !== undefined && b.content !== null) {
    const blocks = expectArray(b.content, `${path}.content`);
    for (let i = 0; i < blocks.length; i++) {
      const c = expectObject(blocks[i], `${path}.content[${i}]`);
      if (c.type === 'text') content += expectString(c.text, `${path}.content[${i}].text`);
      else other ??= String(c.type);
    }
  }
  out.push({
    type: 'tool_result',
    toolCallId: expectString(b.tool_use_id, `${path}.tool_use_id`),
    content,
    isError: optionalBoolean(b, 'is_error', path) ?? false,
  });
  if (other !== undefined) out.push({ type: 'unsupported', what: `${other} in a tool_result` });
}

function decodeTools(list: unknown[]): ToolDef[] {
  const tools: ToolDef[] = [];
  for (let i = 0; i < list.length; i++) {
    const t = expectObject(list[i], `tools[${i}]`);
    // Server tools (web search, code execution...) have a versioned type and no input_schema.
    if (t.type !== undefined && t.type !== null && t.type !== 'custom') continue;
    const tool: ToolDef = {
      name: expectString(t.name, `tools[${i}].name`),
      parameters: expectObject(t.input_schema, `tools[${i}].input_schema`),
    };
    const description = optionalString(t, 'description', `tools[${i}]`);
    if (description !== undefined) tool.description = description;
    const marker = decodeCacheControl(t.cache_control, `tools[${i}].cache_control`);
    if (marker !== undefined) tool.cache = marker;
    tools.push(tool);
  }
  return tools;
}

function decodeToolChoice(v: unknown): ToolChoice {
  const c = expectObject(v, 'tool_choice');
  switch (c.type) {
    case 'auto':
      return { type: 'auto' };
    case 'none':
      return { type: 'none' };
    case 'any':
      return { type: 'required' };
    case 'tool':
      return { type: 'tool', name: expectString(c.name, 'tool_choice.name') };
    default:
      throw invalidRequest('tool_choice.type must be one of "auto", "any", "tool", "none"');
  }
}

// ---------------------------------------------------------------- encode (upstream)

export function encodeAnthropicRequest(req: ModelRequest, upstreamModel: string): EncodedUpstreamRequest {
  refuseUntranslatable(req, 'anthropic');
  const body: JsonObject = { model: upstreamModel, max_tokens: req.maxTokens ?? DEFAULT_MAX_TOKENS };
  if (req.system !== undefined && req.system.length > 0) {
    body.system = req.systemCache === undefined ? req.system : [{ type: 'text', text: req.system, cache_control: cacheControl(req.systemCache) }];
  }
  body.messages = encodeMessages(req.messages);
  // JSON mode has no schema to constrain to: it becomes a forced call of the output tool.
  const jsonMode = jsonModeTools(req, !thinkingOn(req));
  const tools = jsonMode?.tools ?? req.tools;
  const toolChoice = jsonMode?.choice ?? req.toolChoice;
  if (tools !== undefined && tools.length > 0) {
    body.tools = tools.map(encodeTool);
    if (toolChoice !== undefined) body.tool_choice = encodeToolChoice(toolChoice);
    if (req.parallelToolCalls === false && toolChoice?.type !== 'none') {
      body.tool_choice = { ...((body.tool_choice as JsonObject | undefined) ?? { type: 'auto' }), disable_parallel_tool_use: true };
    }
  }
  encodeOutputAndThinking(req, body);
  encodeSampling(req, ANTHROPIC_SAMPLING, 'anthropic request', body);
  if (req.stop !== undefined && req.stop.length > 0) body.stop_sequences = req.stop;
  if (req.stream) body.stream = true;
  return { path: MESSAGES_PATH, body: JSON.stringify(body), headers: { 'anthropic-version': ANTHROPIC_VERSION } };
}

function encodeMessages(messages: ModelMessage[]): WireTurn[] {
  const out = wireTurns(messages, blocksOf);
  // Anthropic wants a turn's tool_result blocks before any other block of that turn.
  for (const m of out) {
    if (m.role === 'user' && m.content.some((b) => b.type === 'tool_result')) {
      m.content = [...m.content.filter((b) => b.type === 'tool_result'), ...m.content.filter((b) => b.type !== 'tool_result')];
    }
  }
  return out;
}

function blocksOf(m: ModelMessage): JsonObject[] {
  return m.content.map(encodePart).filter((b): b is JsonObject => b !== undefined);
}

function encodePart(p: ContentPart): JsonObject | undefined {
  const block = encodeBlock(p);
  if (block !== undefined && p.type !== 'unsupported' && p.cache !== undefined) block.cache_control = cacheControl(p.cache);
  return block;
}

function encodeBlock(p: ContentPart): JsonObject | undefined {
  switch (p.type) {
    case 'text':
      return p.text.length > 0 ? { type: 'text', text: p.text } : undefined; // Anthropic rejects empty text blocks
    case 'image':
      return encodeImage(p);
    case 'file':
      return encodeDocument(p);
    case 'unsupported':
      return undefined; // refused before (refuseUntranslatable)
    case 'reasoning':
      return thinkingBlockForLane(p);
    case 'tool_call':
      return { type: 'tool_use', id: p.id, name: p.name, input: argumentsObject(p.arguments, p.id, 'invalid_request') };
    case 'tool_result': {
      const block: JsonObject = { type: 'tool_result', tool_use_id: p.toolCallId };
      if (p.content.length > 0) block.content = p.content;
      if (p.isError) block.is_error = true;
      return block;
    }
  }
}

/** Images are base64 with a media type, or an http(s) URL Anthropic fetches itself. */
function encodeImage(p: ImagePart): JsonObject {
  if (p.data !== undefined && p.mediaType !== undefined) {
    return { type: 'image', source: { type: 'base64', media_type: p.mediaType, data: p.data } };
  }
  const inline = p.url !== undefined ? splitDataUrl(p.url) : undefined;
  if (inline !== undefined) return { type: 'image', source: { type: 'base64', media_type: inline.mediaType, data: inline.data } };
  if (p.url !== undefined && isHttpUrl(p.url)) return { type: 'image', source: { type: 'url', url: p.url } };
  return refusePart(describeSource('image', p), 'anthropic', 'Anthropic images are base64 with a media type or http(s) URLs');
}

/** Documents are PDFs (inline or by http(s) URL) or plain text. */
function encodeDocument(p: FilePart): JsonObject {
  let block: JsonObject | undefined;
  if (p.data !== undefined && p.mediaType === 'application/pdf') {
    block = { type: 'document', source: { type: 'base64', media_type: p.mediaType, data: p.data } };
  } else if (p.data !== undefined && p.mediaType === 'text/plain') {
    block = { type: 'document', source: { type: 'text', media_type: 'text/plain', data: Buffer.from(p.data, 'base64').toString('utf8') } };
  } else if (p.url !== undefined && isHttpUrl(p.url) && (p.mediaType === undefined || p.mediaType === 'application/pdf')) {
    block = { type: 'document', source: { type: 'url', url: p.url } };
  }
  if (block === undefined) {
    return refusePart(describeSource('file', p), 'anthropic', 'Anthropic documents are PDFs (inline or by http(s) URL) or plain text');
  }
  if (p.name !== undefined) block.title = p.name;
  return block;
}

function encodeTool(t: ToolDef): JsonObject {
  const tool: JsonObject = { name: t.name };
  if (t.description !== undefined) tool.description = t.description;
  tool.input_schema = t.parameters;
  if (t.cache !== undefined) tool.cache_control = cacheControl(t.cache);
  return tool;
}

function encodeToolChoice(c: ToolChoice): JsonObject {
  switch (c.type) {
    case 'auto':
      return { type: 'auto' };
    case 'none':
      return { type: 'none' };
    case 'required':
      return { type: 'any' };
    case 'tool':
      return { type: 'tool', name: c.name };
  }
}
