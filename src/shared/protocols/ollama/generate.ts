// Ollama's /api/generate, the completion form: one prompt (plus an optional system prompt and
// images) in, `response` text out, NDJSON streams by default like /api/chat. It is an ingress
// form only: the prompt becomes one user message and goes to the lane through the internal
// model, so an Ollama lane gets an /api/chat request (the gateway never calls /api/generate).
import type { ContentPart, FinishReason, ModelRequest, ModelResponse, StreamEvent, Usage } from '../../model/types.js';
import { ZERO_USAGE } from '../../model/types.js';
import type { Codec, StreamEncoder } from '../codec.js';
import type { ErrorKind } from '../../errors.js';
import { expectArray, expectObject, expectString, optionalBoolean, optionalString } from '../framing/json-field.js';
import { requiredModel } from '../request-members.js';
import { ollamaCodec } from './codec.js';
import { errorLine } from './errors.js';
import { encodeFinishReason } from './finish-reason.js';
import { mediaTypeOfBase64 } from './image.js';
import { decodeOptions } from './request.js';
import { decodeFormatAndThink } from './request-settings.js';
import { doneFields } from './response.js';

export function decodeGenerateRequest(body: unknown): ModelRequest {
  const b = expectObject(body, 'request body');
  const model = requiredModel(b);
  const prompt = optionalString(b, 'prompt', 'request') ?? '';
  const content: ContentPart[] = [];
  const images = b.images === undefined || b.images === null ? [] : expectArray(b.images, 'images');
  if (prompt !== '' || images.length === 0) content.push({ type: 'text', text: prompt });
  images.forEach((v, i) => {
    const data = expectString(v, `images[${i}]`);
    content.push({ type: 'image', data, mediaType: mediaTypeOfBase64(data) });
  });
  const req: ModelRequest = { model, messages: [{ role: 'user', content }], stream: optionalBoolean(b, 'stream', 'request') ?? true };
  const system = optionalString(b, 'system', 'request');
  if (system !== undefined && system !== '') req.system = system;
  if (b.options !== undefined && b.options !== null) decodeOptions(expectObject(b.options, 'options'), req);
  // As on /api/chat, `format` and `think` are translated; `suffix` (fill-in-the-middle) and
  // `raw` templates have no chat equivalent.
  decodeFormatAndThink(b, req);
  const untranslatable: string[] = [];
  if (typeof b.suffix === 'string' && b.suffix !== '') untranslatable.push('suffix');
  if (b.raw === true) untranslatable.push('raw');
  if (untranslatable.length > 0) req.untranslatable = untranslatable;
  return req;
}

function responseText(resp: ModelResponse): string {
  let text = '';
  for (const part of resp.content) if (part.type === 'text') text += part.text;
  return text;
}

/** The reasoning texts, as /api/generate's `thinking` (undefined when none). */
function thinkingText(resp: ModelResponse): string | undefined {
  let text = '';
  for (const part of resp.content) if (part.type === 'reasoning') text += part.text;
  return text === '' ? undefined : text;
}

export function encodeGenerateResponse(resp: ModelResponse): string {
  const thinking = thinkingText(resp);
  return JSON.stringify({
    model: resp.model,
    created_at: new Date().toISOString(),
    response: responseText(resp),
    ...(thinking === undefined ? {} : { thinking }),
    ...doneFields(encodeFinishReason(resp.finishReason), resp.usage),
  });
}

/** Model stream events -> /api/generate NDJSON: a line per text delta, then the done line. */
export class GenerateStreamEncoder implements StreamEncoder {
  private head = lineHead('');
  private finishReason: FinishReason | undefined;
  private usage: Usage = ZERO_USAGE;
  private failed = false;

  encode(event: StreamEvent): string {
    if (this.failed) return '';
    switch (event.type) {
      case 'start':
        this.head = lineHead(event.model);
        return '';
      case 'text_delta':
        return `${this.head}"response":${event.literal ?? JSON.stringify(event.text)},"done":false}\n`;
      case 'reasoning_delta':
        return `${this.head}"response":"","thinking":${JSON.stringify(event.text)},"done":false}\n`;
      case 'finish':
        this.finishReason = event.reason;
        return '';
      case 'usage':
        this.usage = event.usage;
        return '';
      case 'end':
        return `${this.head}"response":"",${JSON.stringify(doneFields(encodeFinishReason(this.finishReason), this.usage)).slice(1)}\n`;
      default:
        return '';
    }
  }

  error(_kind: ErrorKind, message: string): string {
    this.failed = true;
    return errorLine(message);
  }
}

function lineHead(model: string): string {
  return `{"model":${JSON.stringify(model)},"created_at":${JSON.stringify(new Date().toISOString())},`;
}

/**
 * A codec object of its own (not `CODECS.ollama`), so that the pipeline, which passes a
 * request through untouched only when the caller's codec IS the lane's, always translates it.
 * Its upstream side is Ollama's chat side (never used: no lane speaks /api/generate).
 */
export const ollamaGenerateCodec: Codec = {
  ...ollamaCodec,
  decodeRequest: (body) => decodeGenerateRequest(body),
  encodeResponse: encodeGenerateResponse,
  createStreamEncoder: () => new GenerateStreamEncoder(),
};
