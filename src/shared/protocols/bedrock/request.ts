// Bedrock Converse request <-> the model. The model id and streaming live in the path
// (`/model/{modelId}/converse`, `/converse-stream`). Images and documents travel as base64
// `bytes` (or an s3Location) with a format name; tool inputs are objects; turns must
// alternate user/assistant.
import type { ContentPart, FilePart, ImagePart, ModelMessage, ModelRequest, ToolChoice, ToolDef, ToolResultPart } from '../../model/types.js';
import type { EncodedUpstreamRequest, RouteInfo } from '../codec.js';
import { expectArray, expectObject, expectString, optionalInteger, optionalString, type JsonObject } from '../framing/json-field.js';
import { invalidRequest } from '../invalid-request.js';
import { argumentsObject, optionalStringArray, splitDataUrl } from '../framing/body-fields.js';
import { describeSource, mediaTypeOfUrl, refusePart, refuseUntranslatable } from '../refusal.js';
import { refuseUnenforceableCallLimit } from '../parallel-tool-calls.js';
import { decodeSampling, encodeSampling, type SamplingMembers } from '../sampling.js';
import { requiredPathModel } from '../request-members.js';
import { TurnRuns, wireTurns, type WireTurn } from '../turns.js';
import { jsonModeTools } from '../json-output-tool.js';
import { cachePointBlock, claudeThinking, decodeCachePoint, decodeOutputConfig, encodeOutputAndReasoning } from './request-settings.js';
import { partsOfReasoningContent, reasoningBlockForLane } from './reasoning.js';

/** Converse's temperature range is narrower than some callers'. */
const CONVERSE_SAMPLING: SamplingMembers = { topP: 'topP', temperatureMax: 1 };

export function bedrockPath(modelId: string, stream: boolean): string {
  return `/model/${encodeURIComponent(modelId)}/${stream ? 'converse-stream' : 'converse'}`;
}

/** The image formats Converse takes, by media type. */
const FORMAT_OF_MEDIA_TYPE: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

/** The document formats Converse takes, by media type (and back). */
const DOCUMENT_FORMAT_OF_MEDIA_TYPE: Readonly<Record<string, string>> = {
  'application/pdf': 'pdf',
  'text/csv': 'csv',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'text/html': 'html',
  'text/plain': 'txt',
  'text/markdown': 'md',
};
const MEDIA_TYPE_OF_DOCUMENT_FORMAT: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(DOCUMENT_FORMAT_OF_MEDIA_TYPE).map(([type, format]) => [format, type]),
);

// ---------------------------------------------------------------- decode (ingress)

export function decodeBedrockRequest(body: unknown, route: RouteInfo): ModelRequest {
  const o = expectObject(body, 'request body');
  const req: ModelRequest = {
    model: requiredPathModel(route.pathModel, '/model/{modelId}/converse'),
    messages: decodeMessages(expectArray(o.messages, 'messages')),
    stream: route.pathStream === true,
  };
  const system = decodeSystem(o.system, req);
  if (system !== undefined) req.system = system;
  decodeInferenceConfig(o.inferenceConfig, req);
  decodeToolConfig(o.toolConfig, req);
  decodeOutputConfig(o, req);
  return req;
}

/** The system texts joined; a cachePoint among them marks the whole system prompt. */
function decodeSystem(v: unknown, req: ModelRequest): string | undefined {
  if (v === undefined || v === null) return undefined;
  const blocks = expectArray(v, 'system');
  const texts: string[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const b = expectObject(blocks[i], `system[${i}]`);
    if (b.text !== undefined) texts.push(expectString(b.text, `system[${i}].text`));
    else if (b.cachePoint !== undefined) req.systemCache = decodeCachePoint(b.cachePoint, `system[${i}].cachePoint`);
    // guardContent: not modeled
  }
  return texts.length > 0 ? texts.join('\n') : undefined;
}

function decodeMessages(list: unknown[]): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (let i = 0; i < list.length; i++) {
    const path = `messages[${i}]`;
    const m = expectObject(list[i], path);
    if (m.role !== 'user' && m.role !== 'assistant') throw invalidRequest(`${path}.role must be "user" or "assistant"`);
    const fromUser = m.role === 'user';
    const blocks = expectArray(m.content, `${path}.content`);
    // Tool results ride in user turns on this wire; the model keeps them in `tool` messages.
    const runs = new TurnRuns(out, fromUser);
    /** Parts the model cannot carry inside a tool result: kept apart, refused cross-protocol. */
    const unsupported: ContentPart[] = [];
    let previous: ContentPart | undefined;
    for (let j = 0; j < blocks.length; j++) {
      const block = expectObject(blocks[j], `${path}.content[${j}]`);
      if (block.cachePoint !== undefined) {
        // A cache point marks the block before it (in this message, else the message before).
        const marker = decodeCachePoint(block.cachePoint, `${path}.content[${j}].cachePoint`);
        const target = previous ?? out[out.length - 1]?.content.at(-1);
        if (target !== undefined && target.type !== 'unsupported' && target.type !== 'reasoning') target.cache = marker;
        continue;
      }
      // The model's own reasoning from an earlier turn, kept for a lane of its family (reasoning.ts).
      const parts =
        !fromUser && block.reasoningContent !== undefined
          ? partsOfReasoningContent(block.reasoningContent)
          : [decodeBlock(block, `${path}.content[${j}]`, fromUser, unsupported)];
      for (const part of parts) {
        if (part === undefined) continue;
        previous = part;
        runs.add(part);
      }
    }
    runs.end();
    if (unsupported.length > 0) out.push({ role: 'user', content: unsupported });
  }
  return out;
}

function decodeBlock(b: JsonObject, path: string, fromUser: boolean, unsupported: ContentPart[]): ContentPart | undefined {
  if (b.text !== undefined) return { type: 'text', text: expectString(b.text, `${path}.text`) };
  if (b.image !== undefined) return decodeImage(expectObject(b.image, `${path}.image`), `${path}.image`);
  if (b.toolUse !== undefined && !fromUser) {
    const t = expectObject(b.toolUse, `${path}.toolUse`);
    return {
      type: 'tool_call',
      id: expectString(t.toolUseId, `${path}.toolUse.toolUseId`),
      name: expectString(t.name, `${path}.toolUse.name`),
      arguments: JSON.stringify(t.input ?? {}),
    };
  }
  if (b.toolResult !== undefined && fromUser) return decodeToolResult(expectObject(b.toolResult, `${path}.toolResult`), `${path}.toolResult`, unsupported);
  if (b.document !== undefined) return decodeDocument(expectObject(b.document, `${path}.document`), `${path}.document`);
  // Cache points (and reasoning in a user turn) are not content of the caller's: dropped.
  if (b.reasoningContent !== undefined || b.cachePoint !== undefined || b.toolUse !== undefined || b.toolResult !== undefined) return undefined;
  const key = Object.keys(b)[0];
  return key === undefined ? undefined : { type: 'unsupported', what: key }; // video, guardContent...: refused cross-protocol
}

function decodeImage(img: JsonObject, path: string): ImagePart {
  const format = expectString(img.format, `${path}.format`);
  const source = expectObject(img.source, `${path}.source`);
  if (source.bytes === undefined) {
    // An S3 object in the caller's AWS account: only a Bedrock lane can read it.
    const s3 = expectObject(source.s3Location, `${path}.source.s3Location`);
    return { type: 'image', url: expectString(s3.uri, `${path}.source.s3Location.uri`), mediaType: `image/${format}` };
  }
  return { type: 'image', data: expectString(source.bytes, `${path}.source.bytes`), mediaType: `image/${format}` };
}

/** A document: bytes (or an S3 object) with a format and a name; a text source is text. */
function decodeDocument(doc: JsonObject, path: string): ContentPart {
  const format = expectString(doc.format ?? 'txt', `${path}.format`);
  const name = optionalString(doc, 'name', path);
  const source = expectObject(doc.source, `${path}.source`);
  if (source.text !== undefined) return { type: 'text', text: expectString(source.text, `${path}.source.text`) };
  const mediaType = MEDIA_TYPE_OF_DOCUMENT_FORMAT[format] ?? `application/${format}`;
  let file: FilePart;
  if (source.bytes !== undefined) {
    file = { type: 'file', data: expectString(source.bytes, `${path}.source.bytes`), mediaType };
  } else if (source.s3Location !== undefined) {
    file = { type: 'file', url: expectString(expectObject(source.s3Location, `${path}.source.s3Location`).uri, `${path}.source.s3Location.uri`), mediaType };
  } else {
    return { type: 'unsupported', what: 'document (content source)' };
  }
  if (name !== undefined) file.name = name;
  return file;
}

/** Text and JSON blocks joined; an image or document in a tool result is refused cross-protocol. */
function decodeToolResult(r: JsonObject, path: string, out: ContentPart[]): ToolResultPart {
  const blocks = expectArray(r.content, `${path}.content`);
  let content = '';
  for (let i = 0; i < blocks.length; i++) {
    const c = expectObject(blocks[i], `${path}.content[${i}]`);
    if (c.text !== undefined) content += expectString(c.text, `${path}.content[${i}].text`);
    else if (c.json !== undefined) content += JSON.stringify(c.json);
    else out.push({ type: 'unsupported', what: `${Object.keys(c)[0] ?? 'block'} in a toolResult` });
  }
  const status = optionalString(r, 'status', path);
  if (status !== undefined && status !== 'success' && status !== 'error') throw invalidRequest(`${path}.status must be "success" or "error"`);
  return { type: 'tool_result', toolCallId: expectString(r.toolUseId, `${path}.toolUseId`), content, isError: status === 'error' };
}

function decodeInferenceConfig(v: unknown, req: ModelRequest): void {
  if (v === undefined || v === null) return;
  const c = expectObject(v, 'inferenceConfig');
  const maxTokens = optionalInteger(c, 'maxTokens', 'inferenceConfig', 1);
  if (maxTokens !== undefined) req.maxTokens = maxTokens;
  decodeSampling(c, CONVERSE_SAMPLING, 'inferenceConfig', req);
  const stop = optionalStringArray(c, 'stopSequences', 'inferenceConfig');
  if (stop !== undefined) req.stop = stop;
}

function decodeToolConfig(v: unknown, req: ModelRequest): void {
  if (v === undefined || v === null) return;
  const c = expectObject(v, 'toolConfig');
  const list = expectArray(c.tools, 'toolConfig.tools');
  const tools: ToolDef[] = [];
  for (let i = 0; i < list.length; i++) {
    const t = expectObject(list[i], `toolConfig.tools[${i}]`);
    if (t.cachePoint !== undefined && tools.length > 0) tools[tools.length - 1]!.cache = decodeCachePoint(t.cachePoint, `toolConfig.tools[${i}].cachePoint`);
    if (t.toolSpec === undefined) continue; // cachePoint, system tools
    const path = `toolConfig.tools[${i}].toolSpec`;
    const spec = expectObject(t.toolSpec, path);
    const schema = expectObject(spec.inputSchema, `${path}.inputSchema`);
    const tool: ToolDef = { name: expectString(spec.name, `${path}.name`), parameters: expectObject(schema.json, `${path}.inputSchema.json`) };
    const description = optionalString(spec, 'description', path);
    if (description !== undefined) tool.description = description;
    tools.push(tool);
  }
  req.tools = tools;
  if (c.toolChoice === undefined || c.toolChoice === null) return;
  const choice = expectObject(c.toolChoice, 'toolConfig.toolChoice');
  if (choice.auto !== undefined) req.toolChoice = { type: 'auto' };
  else if (choice.any !== undefined) req.toolChoice = { type: 'required' };
  else if (choice.tool !== undefined) {
    req.toolChoice = { type: 'tool', name: expectString(expectObject(choice.tool, 'toolConfig.toolChoice.tool').name, 'toolConfig.toolChoice.tool.name') };
  } else throw invalidRequest('toolConfig.toolChoice must hold one of auto, any, tool');
}

// ---------------------------------------------------------------- encode (upstream)

export function encodeBedrockRequest(req: ModelRequest, upstreamModel: string): EncodedUpstreamRequest {
  refuseUntranslatable(req, 'bedrock');
  const messages = wireTurns(req.messages, blocksOf);
  const body: JsonObject = { messages };
  if (req.system !== undefined && req.system.length > 0) {
    body.system = req.systemCache === undefined ? [{ text: req.system }] : [{ text: req.system }, cachePointBlock(req.systemCache)];
  }
  const inferenceConfig = encodeInferenceConfig(req);
  if (inferenceConfig !== undefined) body.inferenceConfig = inferenceConfig;
  // JSON mode has no schema to constrain to: it becomes a forced call of the output tool.
  const jsonMode = jsonModeTools(req, !claudeThinking(req, upstreamModel));
  const toolConfig = encodeToolConfig(jsonMode === null ? req : { ...req, tools: jsonMode.tools, toolChoice: jsonMode.choice }, messages);
  if (toolConfig !== undefined) body.toolConfig = toolConfig;
  encodeOutputAndReasoning(req, upstreamModel, body);
  return { path: bedrockPath(upstreamModel, req.stream), body: JSON.stringify(body) };
}

/** A message's blocks, each with the cache point after it that marks it. */
function blocksOf(m: ModelMessage): JsonObject[] {
  const blocks: JsonObject[] = [];
  for (const p of m.content) encodeMessagePart(p, blocks);
  return blocks;
}

function encodeMessagePart(p: ContentPart, into: JsonObject[]): void {
  const block = encodePart(p);
  if (block === undefined) return;
  into.push(block);
  if (p.type !== 'unsupported' && p.cache !== undefined) into.push(cachePointBlock(p.cache));
}

function encodePart(p: ContentPart): JsonObject | undefined {
  switch (p.type) {
    case 'text':
      return p.text.length > 0 ? { text: p.text } : undefined; // Converse rejects blank text blocks
    case 'image':
      return encodeImage(p);
    case 'file':
      return encodeDocument(p);
    case 'unsupported':
      return undefined; // refused before (refuseUntranslatable)
    case 'reasoning':
      return reasoningBlockForLane(p);
    case 'tool_call':
      return { toolUse: { toolUseId: p.id, name: p.name, input: argumentsObject(p.arguments, p.id, 'invalid_request') } };
    case 'tool_result':
      return { toolResult: { toolUseId: p.toolCallId, content: [{ text: p.content }], status: p.isError ? 'error' : 'success' } };
  }
}

/**
 * Converse takes base64 bytes (or an S3 object) with a format. An http(s) URL cannot be
 * expressed (the gateway does not fetch callers' URLs): refused, as is an unknown format.
 */
function encodeImage(p: ImagePart): JsonObject {
  const inline =
    p.data !== undefined && p.mediaType !== undefined ? { mediaType: p.mediaType, data: p.data } : p.url !== undefined ? splitDataUrl(p.url) : undefined;
  const mediaType = inline?.mediaType ?? p.mediaType ?? (p.url !== undefined ? mediaTypeOfUrl(p.url) : undefined);
  const format = mediaType === undefined ? undefined : FORMAT_OF_MEDIA_TYPE[mediaType.toLowerCase()];
  if (inline !== undefined && format !== undefined) return { image: { format, source: { bytes: inline.data } } };
  if (inline === undefined && p.url !== undefined && p.url.startsWith('s3://') && format !== undefined) {
    return { image: { format, source: { s3Location: { uri: p.url } } } };
  }
  return refusePart(describeSource('image', p), 'bedrock', 'Converse images are png, jpeg, gif or webp bytes or s3:// objects, not http(s) URLs');
}

/** A document block: bytes (or an S3 object) of a format Converse knows, with a name. */
function encodeDocument(p: FilePart): JsonObject {
  const format = p.mediaType === undefined ? undefined : DOCUMENT_FORMAT_OF_MEDIA_TYPE[p.mediaType.toLowerCase()];
  let source: JsonObject | undefined;
  if (p.data !== undefined) source = { bytes: p.data };
  else if (p.url !== undefined && p.url.startsWith('s3://')) source = { s3Location: { uri: p.url } };
  if (format === undefined || source === undefined) {
    return refusePart(describeSource('file', p), 'bedrock', 'Converse documents are bytes or s3:// objects of pdf, csv, doc(x), xls(x), html, txt or md');
  }
  return { document: { format, name: documentName(p.name), source } };
}

/** Converse names: letters, digits, single spaces, hyphens, parentheses, square brackets. */
function documentName(name: string | undefined): string {
  const cleaned = (name ?? '')
    .replace(/[^A-Za-z0-9\s\-()[\]]/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
  return cleaned === '' ? 'document' : cleaned.slice(0, 200);
}

function encodeInferenceConfig(req: ModelRequest): JsonObject | undefined {
  const c: JsonObject = {};
  if (req.maxTokens !== undefined) c.maxTokens = req.maxTokens;
  encodeSampling(req, CONVERSE_SAMPLING, 'bedrock inferenceConfig', c);
  if (req.stop !== undefined && req.stop.length > 0) c.stopSequences = req.stop;
  return Object.keys(c).length > 0 ? c : undefined;
}

/**
 * Converse has no "none" tool choice. With `none` the tools are left out, unless the history
 * holds tool blocks (Converse then requires toolConfig): the tools go without a choice.
 */
function encodeToolConfig(req: ModelRequest, messages: WireTurn[]): JsonObject | undefined {
  if (req.tools === undefined || req.tools.length === 0) return undefined;
  const tools: JsonObject[] = [];
  for (const t of req.tools) {
    tools.push(encodeTool(t));
    if (t.cache !== undefined) tools.push(cachePointBlock(t.cache));
  }
  const choice = req.toolChoice;
  refuseUnenforceableCallLimit(req, 'bedrock', 'Converse has no setting that limits an answer to one tool call');
  if (choice === undefined) return { tools };
  if (choice.type === 'none') return historyHasToolBlocks(messages) ? { tools } : undefined;
  return { tools, toolChoice: encodeToolChoice(choice) };
}

function historyHasToolBlocks(messages: WireTurn[]): boolean {
  return messages.some((m) => m.content.some((b) => b.toolUse !== undefined || b.toolResult !== undefined));
}

function encodeTool(t: ToolDef): JsonObject {
  const spec: JsonObject = { name: t.name };
  if (t.description !== undefined) spec.description = t.description;
  spec.inputSchema = { json: t.parameters };
  return { toolSpec: spec };
}

function encodeToolChoice(c: Exclude<ToolChoice, { type: 'none' }>): JsonObject {
  switch (c.type) {
    case 'auto':
      return { auto: {} };
    case 'required':
      return { any: {} };
    case 'tool':
      return { tool: { name: c.name } };
  }
}
