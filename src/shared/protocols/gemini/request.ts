// Gemini generateContent request <-> the model. The model and streaming live in the path.
// Gemini function calls often carry no id (call-ids.ts pairs them). Going the other way, ids
// are written (the API accepts them) and a functionResponse also needs the function's NAME,
// found from the assistant tool call with the same id earlier in the request.
import type { ContentPart, FilePart, ImagePart, ModelMessage, ModelRequest, ToolChoice, ToolDef, ToolResultPart } from '../../model/types.js';
import type { EncodedUpstreamRequest, RouteInfo } from '../codec.js';
import { expectArray, expectObject, expectString, isJsonObject, optionalInteger, optionalString, type JsonObject } from '../framing/json-field.js';
import { invalidRequest } from '../invalid-request.js';
import { CallIds } from './call-ids.js';
import { argumentsObject, field, keyOf, optionalStringArray, splitDataUrl } from './fields.js';
import { openApiToJsonSchema } from './schema-types.js';
import { describeSource, mediaTypeOfUrl, refusePart, refuseUntranslatable } from '../refusal.js';
import { decodeSampling, encodeSampling, type SamplingMembers } from '../sampling.js';
import { requiredPathModel } from '../request-members.js';
import { TurnRuns } from '../turns.js';
import { refuseUnenforceableCallLimit } from '../parallel-tool-calls.js';
import { decodeResponseFormat, decodeThinkingConfig, encodeOutputAndThinking } from './request-settings.js';
import { geminiParts, partsOfSignature, partsOfThought, signatureOf } from './thought.js';

const GEMINI_SAMPLING: SamplingMembers = { topP: 'topP', temperatureMax: 2 };

export function geminiPath(model: string, stream: boolean): string {
  return stream ? `/models/${model}:streamGenerateContent?alt=sse` : `/models/${model}:generateContent`;
}

// ---------------------------------------------------------------- decode (ingress)

export function decodeGeminiRequest(body: unknown, route: RouteInfo): ModelRequest {
  const o = expectObject(body, 'request body');
  const req: ModelRequest = {
    model: requiredPathModel(route.pathModel, '/v1beta/models/{model}:generateContent'),
    messages: decodeContents(expectArray(o.contents, 'contents')),
    stream: route.pathStream === true,
  };
  const system = decodeSystem(field(o, 'systemInstruction', 'system_instruction'));
  if (system !== undefined) req.system = system;
  decodeGenerationConfig(field(o, 'generationConfig', 'generation_config'), req);
  const tools = o.tools === undefined || o.tools === null ? undefined : decodeTools(expectArray(o.tools, 'tools'));
  if (tools !== undefined) req.tools = tools;
  const toolChoice = decodeToolConfig(field(o, 'toolConfig', 'tool_config'));
  if (toolChoice !== undefined) req.toolChoice = toolChoice;
  return req;
}

function decodeSystem(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v;
  const c = expectObject(v, 'systemInstruction');
  const parts = expectArray(c.parts, 'systemInstruction.parts');
  const texts: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const p = expectObject(parts[i], `systemInstruction.parts[${i}]`);
    if (p.text !== undefined) texts.push(expectString(p.text, `systemInstruction.parts[${i}].text`));
  }
  return texts.join('\n');
}

function decodeContents(list: unknown[]): ModelMessage[] {
  const ids = new CallIds();
  const out: ModelMessage[] = [];
  for (let i = 0; i < list.length; i++) {
    const path = `contents[${i}]`;
    const c = expectObject(list[i], path);
    const role = c.role ?? 'user';
    if (role !== 'user' && role !== 'model' && role !== 'function') {
      throw invalidRequest(`${path}.role must be "user" or "model"`);
    }
    const parts = expectArray(c.parts, `${path}.parts`);
    if (role !== 'model') claimAnsweredIds(parts, ids);
    // Function responses ride in user turns on this wire; the model keeps them in `tool` messages.
    const runs = new TurnRuns(out, role !== 'model');
    for (let j = 0; j < parts.length; j++) {
      for (const part of decodePart(expectObject(parts[j], `${path}.parts[${j}]`), `${path}.parts[${j}]`, role === 'model', ids)) runs.add(part);
    }
    runs.end();
  }
  return out;
}

function claimAnsweredIds(parts: unknown[], ids: CallIds): void {
  for (const p of parts) {
    const fr = isJsonObject(p) ? field(p, 'functionResponse', 'function_response') : undefined;
    if (isJsonObject(fr) && typeof fr.name === 'string') ids.claim(fr.name, fr.id);
  }
}

/** A part of the caller's as model parts: most are one; a signed part also gives the reasoning its signature stands for. */
function decodePart(p: JsonObject, path: string, fromModel: boolean, ids: CallIds): ContentPart[] {
  const signature = fromModel ? signatureOf(p) : undefined;
  if (fromModel && p.text !== undefined && p.thought === true) return partsOfThought(expectString(p.text, `${path}.text`), signature);
  if (fromModel && p.text !== undefined && signature !== undefined) {
    const text = expectString(p.text, `${path}.text`);
    return text === '' ? partsOfSignature(signature) : [{ type: 'text', text }, ...partsOfSignature(signature)];
  }
  const call = field(p, 'functionCall', 'function_call');
  if (fromModel && call !== undefined && signature !== undefined) {
    const part = decodeOnePart(p, path, fromModel, ids);
    return part === undefined ? [] : [...partsOfSignature(signature), part];
  }
  const part = decodeOnePart(p, path, fromModel, ids);
  return part === undefined ? [] : [part];
}

function decodeOnePart(p: JsonObject, path: string, fromModel: boolean, ids: CallIds): ContentPart | undefined {
  if (p.text !== undefined) {
    if (p.thought === true) return undefined; // a thought in a user turn is nobody's reasoning
    return { type: 'text', text: expectString(p.text, `${path}.text`) };
  }
  const inline = field(p, 'inlineData', 'inline_data');
  if (inline !== undefined) return decodeInlineData(expectObject(inline, `${path}.inlineData`), `${path}.inlineData`);
  const file = field(p, 'fileData', 'file_data');
  if (file !== undefined) return decodeFileData(expectObject(file, `${path}.fileData`), `${path}.fileData`);
  const call = field(p, 'functionCall', 'function_call');
  if (call !== undefined) {
    const fc = expectObject(call, `${path}.functionCall`);
    const name = expectString(fc.name, `${path}.functionCall.name`);
    const args = fc.args === undefined || fc.args === null ? {} : expectObject(fc.args, `${path}.functionCall.args`);
    // A call in a user turn is not something a model said; it has no place in the subset.
    return fromModel ? { type: 'tool_call', id: ids.call(name, fc.id), name, arguments: JSON.stringify(args) } : undefined;
  }
  const response = field(p, 'functionResponse', 'function_response');
  if (response !== undefined && !fromModel) {
    const fr = expectObject(response, `${path}.functionResponse`);
    const name = expectString(fr.name, `${path}.functionResponse.name`);
    return { ...resultContent(fr.response), type: 'tool_result', toolCallId: ids.response(name, fr.id), name };
  }
  if (response !== undefined) return undefined; // a response in a model turn: no place in the subset
  const key = Object.keys(p).find((k) => k !== 'thoughtSignature' && k !== 'thought_signature' && k !== 'thought');
  return key === undefined ? undefined : { type: 'unsupported', what: key }; // executable code, code results...: refused cross-protocol
}

/** Undoes the wrapping the encoder does: {content: text} is text, {error: text} an error. */
function resultContent(response: unknown): Pick<ToolResultPart, 'content' | 'isError'> {
  if (isJsonObject(response)) {
    const keys = Object.keys(response);
    if (keys.length === 1 && typeof response.content === 'string') return { content: response.content, isError: false };
    if (keys.length === 1 && typeof response.error === 'string') return { content: response.error, isError: true };
  }
  return { content: response === undefined ? '' : JSON.stringify(response), isError: false };
}

/** Audio and video have no kind in the model: refused cross-protocol, never dropped. */
function isAudioOrVideo(mediaType: string): boolean {
  return mediaType.startsWith('audio/') || mediaType.startsWith('video/');
}

/** Inline bytes: an image, or a file (a PDF, text...). */
function decodeInlineData(d: JsonObject, path: string): ContentPart {
  const mediaType = expectString(field(d, 'mimeType', 'mime_type'), `${path}.mimeType`);
  if (isAudioOrVideo(mediaType)) return { type: 'unsupported', what: `inlineData (${mediaType})` };
  const data = expectString(d.data, `${path}.data`);
  return mediaType.startsWith('image/') ? { type: 'image', data, mediaType } : { type: 'file', data, mediaType };
}

/** A file by URI (a Files API URI, gs:// or http(s)): an image, or a file. */
function decodeFileData(d: JsonObject, path: string): ContentPart {
  const url = expectString(field(d, 'fileUri', 'file_uri'), `${path}.fileUri`);
  const mediaType = optionalString(d, keyOf(d, 'mimeType', 'mime_type'), path) ?? mediaTypeOfUrl(url);
  if (mediaType !== undefined && isAudioOrVideo(mediaType)) return { type: 'unsupported', what: `fileData (${mediaType})` };
  if (mediaType !== undefined && mediaType.startsWith('image/')) return { type: 'image', url, mediaType };
  return mediaType === undefined ? { type: 'file', url } : { type: 'file', url, mediaType };
}

function decodeGenerationConfig(v: unknown, req: ModelRequest): void {
  if (v === undefined || v === null) return;
  const g = expectObject(v, 'generationConfig');
  const path = 'generationConfig';
  const maxTokens = optionalInteger(g, keyOf(g, 'maxOutputTokens', 'max_output_tokens'), path, 1);
  if (maxTokens !== undefined) req.maxTokens = maxTokens;
  decodeSampling(g, { ...GEMINI_SAMPLING, topP: keyOf(g, 'topP', 'top_p') }, path, req);
  const stop = optionalStringArray(g, keyOf(g, 'stopSequences', 'stop_sequences'), path);
  if (stop !== undefined) req.stop = stop;
  const responseFormat = decodeResponseFormat(g);
  if (responseFormat !== undefined) req.responseFormat = responseFormat;
  const reasoning = decodeThinkingConfig(g);
  if (reasoning !== undefined) req.reasoning = reasoning;
  const untranslatable = untranslatableGenerationConfig(g);
  if (untranslatable.length > 0) req.untranslatable = untranslatable;
}

/** Settings that change the answer and that no translation carries (docs/compatibility.md). */
function untranslatableGenerationConfig(g: JsonObject): string[] {
  const out: string[] = [];
  const candidates = field(g, 'candidateCount', 'candidate_count');
  if (typeof candidates === 'number' && candidates > 1) out.push(`candidateCount=${candidates}`);
  // application/json is structured output (request-settings.ts); text/x.enum answers a bare
  // enum value, which no other protocol's structured output can express.
  const mime = field(g, 'responseMimeType', 'response_mime_type');
  if (typeof mime === 'string' && mime !== 'text/plain' && mime !== 'application/json') out.push(`responseMimeType ${mime}`);
  if (field(g, 'responseLogprobs', 'response_logprobs') === true) out.push('responseLogprobs');
  const modalities = field(g, 'responseModalities', 'response_modalities');
  if (Array.isArray(modalities) && modalities.some((m) => m !== 'TEXT')) out.push(`responseModalities ${modalities.join(',')}`);
  return out;
}

function decodeTools(list: unknown[]): ToolDef[] {
  const tools: ToolDef[] = [];
  for (let i = 0; i < list.length; i++) {
    const t = expectObject(list[i], `tools[${i}]`);
    const decls = field(t, 'functionDeclarations', 'function_declarations');
    if (decls === undefined || decls === null) continue; // search, code execution: server-side tools
    const arr = expectArray(decls, `tools[${i}].functionDeclarations`);
    for (let j = 0; j < arr.length; j++) {
      const path = `tools[${i}].functionDeclarations[${j}]`;
      const d = expectObject(arr[j], path);
      const tool: ToolDef = { name: expectString(d.name, `${path}.name`), parameters: decodeParameters(d, path) };
      const description = optionalString(d, 'description', path);
      if (description !== undefined) tool.description = description;
      tools.push(tool);
    }
  }
  return tools;
}

function decodeParameters(d: JsonObject, path: string): Record<string, unknown> {
  const jsonSchema = field(d, 'parametersJsonSchema', 'parameters_json_schema');
  if (jsonSchema !== undefined && jsonSchema !== null) return expectObject(jsonSchema, `${path}.parametersJsonSchema`);
  if (d.parameters === undefined || d.parameters === null) return { type: 'object', properties: {} };
  return openApiToJsonSchema(expectObject(d.parameters, `${path}.parameters`));
}

function decodeToolConfig(v: unknown): ToolChoice | undefined {
  if (v === undefined || v === null) return undefined;
  const tc = expectObject(v, 'toolConfig');
  const fcc = field(tc, 'functionCallingConfig', 'function_calling_config');
  if (fcc === undefined || fcc === null) return undefined;
  const c = expectObject(fcc, 'toolConfig.functionCallingConfig');
  const mode = optionalString(c, 'mode', 'toolConfig.functionCallingConfig');
  switch (mode) {
    case undefined:
    case 'MODE_UNSPECIFIED':
      return undefined;
    case 'AUTO':
    case 'VALIDATED':
      return { type: 'auto' };
    case 'NONE':
      return { type: 'none' };
    case 'ANY': {
      const allowed = optionalStringArray(c, keyOf(c, 'allowedFunctionNames', 'allowed_function_names'), 'toolConfig.functionCallingConfig');
      return allowed?.length === 1 ? { type: 'tool', name: allowed[0]! } : { type: 'required' };
    }
    default:
      throw invalidRequest('toolConfig.functionCallingConfig.mode must be one of AUTO, ANY, NONE, VALIDATED');
  }
}

// ---------------------------------------------------------------- encode (upstream)

export function encodeGeminiRequest(req: ModelRequest, upstreamModel: string): EncodedUpstreamRequest {
  refuseUntranslatable(req, 'gemini');
  const body: JsonObject = { contents: encodeContents(req.messages) };
  if (req.system !== undefined && req.system.length > 0) body.systemInstruction = { parts: [{ text: req.system }] };
  if (req.tools !== undefined && req.tools.length > 0) {
    body.tools = [{ functionDeclarations: req.tools.map(encodeTool) }];
    if (req.toolChoice !== undefined) body.toolConfig = { functionCallingConfig: encodeToolChoice(req.toolChoice) };
    refuseUnenforceableCallLimit(req, 'gemini', 'Gemini has no setting that limits an answer to one function call');
  }
  const generationConfig = encodeGenerationConfig(req);
  if (generationConfig !== undefined) body.generationConfig = generationConfig;
  return { path: geminiPath(upstreamModel, req.stream), body: JSON.stringify(body) };
}

interface WireContent {
  role: 'user' | 'model';
  parts: JsonObject[];
}

function encodeContents(messages: ModelMessage[]): WireContent[] {
  const callNames = new Map<string, string>();
  const out: WireContent[] = [];
  for (const m of messages) {
    const role = m.role === 'assistant' ? 'model' : 'user';
    for (const p of m.content) if (p.type === 'tool_call') callNames.set(p.id, p.name);
    // Reasoning of the gemini family goes back where it came from (thought.ts); another family's is dropped.
    const parts = geminiParts(m.content, false, (p) => encodePart(p, callNames));
    if (parts.length === 0) continue;
    const last = out[out.length - 1];
    // Parallel function responses belong in one turn, and tool + user messages are one user turn.
    if (last !== undefined && last.role === role) last.parts.push(...parts);
    else out.push({ role, parts });
  }
  return out;
}

function encodePart(p: ContentPart, callNames: Map<string, string>): JsonObject | undefined {
  switch (p.type) {
    case 'text':
      return p.text.length > 0 ? { text: p.text } : undefined;
    case 'image':
      return encodeMedia(p, 'image');
    case 'file':
      return encodeMedia(p, 'file');
    case 'unsupported':
    case 'reasoning':
      return undefined; // refused before (refuseUntranslatable); reasoning is written by geminiParts
    case 'tool_call':
      return { functionCall: { id: p.id, name: p.name, args: argumentsObject(p.arguments, p.id, 'invalid_request') } };
    case 'tool_result': {
      const name = p.name ?? callNames.get(p.toolCallId);
      if (name === undefined) {
        throw invalidRequest(`tool result ${p.toolCallId}: no earlier tool call with that id, and Gemini needs the function name`);
      }
      return { functionResponse: { id: p.toolCallId, name, response: resultObject(p) } };
    }
  }
}

/** functionResponse.response must be an object: a JSON object result goes as is, anything else is wrapped. */
function resultObject(p: ToolResultPart): JsonObject {
  if (!p.isError && p.content.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(p.content);
      if (isJsonObject(parsed)) return parsed;
    } catch {
      // not JSON: wrapped below
    }
  }
  return p.isError ? { error: p.content } : { content: p.content };
}

/**
 * Images and files: inline bytes, or fileData by URI. Gemini needs a mimeType for either; a
 * URL that names none (no media type given, no known file extension) is refused, not guessed.
 */
function encodeMedia(p: ImagePart | FilePart, kind: 'image' | 'file'): JsonObject {
  const inline = p.data !== undefined ? { mediaType: p.mediaType, data: p.data } : p.url !== undefined ? splitDataUrl(p.url) : undefined;
  if (inline !== undefined && inline.mediaType !== undefined) return { inlineData: { mimeType: inline.mediaType, data: inline.data } };
  const mimeType = p.mediaType ?? (p.url !== undefined ? mediaTypeOfUrl(p.url) : undefined);
  if (p.url !== undefined && inline === undefined && /^(https?|gs):\/\//i.test(p.url)) {
    if (mimeType !== undefined) return { fileData: { mimeType, fileUri: p.url } };
    return refusePart(describeSource(kind, p), 'gemini', 'Gemini fileData needs a mimeType, and neither the request nor the URL names one');
  }
  return refusePart(describeSource(kind, p), 'gemini', 'Gemini takes inline data with a mimeType, or fileData by http(s) or gs:// URI');
}

function encodeTool(t: ToolDef): JsonObject {
  const decl: JsonObject = { name: t.name };
  if (t.description !== undefined) decl.description = t.description;
  // parametersJsonSchema takes JSON Schema as is; `parameters` would reject much of it.
  decl.parametersJsonSchema = t.parameters;
  return decl;
}

function encodeToolChoice(c: ToolChoice): JsonObject {
  switch (c.type) {
    case 'auto':
      return { mode: 'AUTO' };
    case 'none':
      return { mode: 'NONE' };
    case 'required':
      return { mode: 'ANY' };
    case 'tool':
      return { mode: 'ANY', allowedFunctionNames: [c.name] };
  }
}

function encodeGenerationConfig(req: ModelRequest): JsonObject | undefined {
  const g: JsonObject = {};
  if (req.maxTokens !== undefined) g.maxOutputTokens = req.maxTokens;
  encodeSampling(req, GEMINI_SAMPLING, 'gemini generationConfig', g);
  if (req.stop !== undefined && req.stop.length > 0) g.stopSequences = req.stop;
  encodeOutputAndThinking(req, g);
  return Object.keys(g).length > 0 ? g : undefined;
}
