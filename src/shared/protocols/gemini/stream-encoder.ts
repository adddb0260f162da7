// Model stream events -> Gemini SSE chunks, as @google/genai's generateContentStream parses
// them: each text delta is a chunk; a tool call is buffered until its block stops, because
// functionCall.args is a whole object; finish and usage go out together in a last chunk. A
// reasoning delta is a thought part; the block's signature (another family's state as a token,
// its text in it: the thought parts before it are only what the caller shows) is held to the
// next block, and goes on the functionCall when one follows, else on an empty thought part.
import { OpenReasoningBlocks } from '../reasoning/open-block.js';
import { encodeStateToken } from '../reasoning/state-token.js';
import type { FinishReason, StreamEvent, Usage } from '../../model/types.js';
import type { StreamEncoder } from '../codec.js';
import type { ErrorKind } from '../../errors.js';
import { argumentsObject } from './fields.js';
import { geminiFromFinish } from './finish-reason.js';
import { usageToGemini, usageToGeminiJson } from './usage.js';
import { errorBody } from './errors.js';
import { flattened } from '../framing/flat-string.js';
import { translateFastPath } from '../fast-path/switch.js';
import { TextDeltaTemplates, type TextDeltaTemplate } from '../fast-path/text-run.js';

interface PendingCall {
  index: number;
  id: string;
  name: string;
  args: string;
}

export class GeminiStreamEncoder implements StreamEncoder {
  /** `,"modelVersion":..,"responseId":..}`: every chunk ends with it, so it is built once. */
  private tail = '}';
  /** What follows a text delta's string: the rest of its chunk, tail included (flat, made at `start`). */
  private textTail = textTailOf(this.tail);
  private call: PendingCall | null = null;
  private readonly reasoning = new OpenReasoningBlocks();
  /** The signature of the reasoning block that stopped last, not yet written. */
  private pendingSignature: string | null = null;
  private reason: FinishReason = 'stop';
  private usage: Usage | null = null;
  private readonly runs = new TextDeltaTemplates((e) => TEXT_HEAD + (e.literal ?? JSON.stringify(e.text)) + this.textTail);
  readonly textDeltaTemplate = translateFastPath ? (index: number): TextDeltaTemplate | null => this.runs.for(index) : undefined;

  encode(e: StreamEvent): string {
    switch (e.type) {
      case 'start':
        this.tail = `,"modelVersion":${JSON.stringify(e.model)},"responseId":${JSON.stringify(e.id)}}`;
        this.textTail = textTailOf(this.tail);
        this.runs.reset();
        return '';
      case 'block_start':
        if (e.kind === 'tool_call') {
          this.call = { index: e.index, id: e.id, name: e.name, args: '' };
          return ''; // the held signature goes on its functionCall
        }
        if (e.kind === 'reasoning') this.reasoning.open(e.index, e.family);
        return this.flushSignature();
      case 'reasoning_delta':
        this.reasoning.get(e.index)?.addText(e.text);
        return this.chunk(JSON.stringify({ text: e.text, thought: true }));
      case 'reasoning_state':
        this.reasoning.get(e.index)?.setState(e);
        return '';
      case 'text_delta':
        // chunk(`{"text":<text>}`), in three pieces
        return TEXT_HEAD + (e.literal ?? JSON.stringify(e.text)) + this.textTail;
      case 'text_run':
        return this.runs.write(e);
      case 'tool_args_delta':
        if (this.call !== null && this.call.index === e.index) this.call.args += e.json;
        return '';
      case 'block_stop': {
        const block = this.reasoning.close(e.index);
        if (block !== undefined) {
          const out = this.flushSignature();
          const p = block.part;
          this.pendingSignature = p.family === 'gemini' ? (p.signature ?? null) : encodeStateToken([p], true);
          return out;
        }
        return this.call !== null && this.call.index === e.index ? this.flushCall(this.call) : '';
      }
      case 'finish':
        this.reason = e.reason;
        return '';
      case 'usage':
        this.usage = e.usage;
        return '';
      case 'end': {
        const held = this.flushSignature();
        // An empty text part, as Gemini's own last chunk has: chat history refuses empty parts lists.
        const usage =
          this.usage === null ? '' : `,"usageMetadata":${translateFastPath ? usageToGeminiJson(this.usage) : JSON.stringify(usageToGemini(this.usage))}`;
        return `${held}data: {"candidates":[{"content":{"parts":[{"text":""}],"role":"model"},"finishReason":"${geminiFromFinish(this.reason)}","index":0}]${usage}${this.tail}\n\n`;
      }
    }
  }

  /**
   * The error twice: as an SSE chunk, which @google/genai 2.x and SSE readers (the AI SDK)
   * raise on, then bare, as Google itself writes a mid-stream error, which is all 1.x checks:
   * it raises on a read that is one whole JSON object with `error`, or, when the bare object
   * came in one read with the bytes before it, on the bytes left after the last blank line.
   * Either way 1.x throws; an SSE reader skips the bare line (no blank line ends it).
   */
  error(kind: ErrorKind, message: string): string {
    const body = errorBody(kind, message);
    return `data: ${body}\n\n${body}\n`;
  }

  private flushCall(call: PendingCall): string {
    this.call = null;
    const fc = { id: call.id, name: call.name, args: argumentsObject(call.args, call.id, 'upstream_error') };
    const signature = this.pendingSignature;
    this.pendingSignature = null;
    return this.chunk(JSON.stringify(signature === null ? { functionCall: fc } : { functionCall: fc, thoughtSignature: signature }));
  }

  /** The held signature on an empty thought part of its own ('' when none is held). */
  private flushSignature(): string {
    const signature = this.pendingSignature;
    if (signature === null) return '';
    this.pendingSignature = null;
    return this.chunk(JSON.stringify({ text: '', thought: true, thoughtSignature: signature }));
  }

  private chunk(partJson: string): string {
    return `data: {"candidates":[{"content":{"parts":[${partJson}],"role":"model"},"index":0}]${this.tail}\n\n`;
  }
}

const TEXT_HEAD = 'data: {"candidates":[{"content":{"parts":[{"text":';

function textTailOf(tail: string): string {
  return flattened(`}],"role":"model"},"index":0}]${tail}\n\n`);
}
