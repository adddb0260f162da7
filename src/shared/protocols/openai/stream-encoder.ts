// Model stream events -> Chat Completions SSE chunks, as the openai SDK's stream accumulator
// reads them: every chunk carries id/model/created, tool calls carry tool_calls[].index with
// id, type and name on their first chunk, and the stream ends with `data: [DONE]`.
import type { ErrorKind } from '../../errors.js';
import type { StreamEvent } from '../../model/types.js';
import type { StreamEncoder } from '../codec.js';
import { sseFrame } from '../framing/sse.js';
import { flattened } from '../framing/flat-string.js';
import { errorObject } from './errors.js';
import { encodeFinishReason } from './finish-reason.js';
import { encodeUsage, encodeUsageJson } from './usage.js';
import { translateFastPath } from '../fast-path/switch.js';
import { TextDeltaTemplates, type TextDeltaTemplate } from '../fast-path/text-run.js';
import type { ReasoningPart } from '../../model/types.js';
import { OpenReasoningBlocks } from '../reasoning/open-block.js';
import { idWithReasoning } from '../reasoning/call-id.js';
import { thinkingBlock } from './reasoning.js';

const CHOICE_TAIL = ',"logprobs":null,"finish_reason":null}]}';
/** What follows a text delta's string, and a tool call's arguments string. */
const TEXT_TAIL = `}${CHOICE_TAIL}\n\n`;
const ARGS_TAIL = `}}]}${CHOICE_TAIL}\n\n`;

export class ChatStreamEncoder implements StreamEncoder {
  /** `{"id":...,"model":...,` written once at `start`, reused by every chunk. */
  private head = '';
  /** A text delta's frame up to its string (flat: see flat-string.ts), made with the head. */
  private textHead = '';
  /** A tool call's arguments frame up to its string, for the tool index last written. */
  private argsHead = '';
  private argsHeadIndex = -1;
  /** Block index -> tool_calls[].index (tool calls count from 0 apart from text blocks). */
  private readonly toolIndexes = new Map<number, number>();
  /** Reasoning blocks open; what stopped since the last tool call rides in that call's id (reasoning.ts). */
  private readonly reasoning = new OpenReasoningBlocks();
  private pendingReasoning: ReasoningPart[] | null = null;
  private readonly runs = new TextDeltaTemplates((e) => this.textHead + (e.literal ?? JSON.stringify(e.text)) + TEXT_TAIL);
  readonly textDeltaTemplate = translateFastPath ? (index: number): TextDeltaTemplate | null => this.runs.for(index) : undefined;

  constructor() {
    this.setHead('', '');
  }

  private setHead(id: string, model: string): void {
    this.head = chunkHead(id, model);
    this.textHead = flattened(`data: ${this.head}"choices":[{"index":0,"delta":{"content":`);
    this.argsHeadIndex = -1;
    this.runs?.reset(); // (undefined while the constructor's first setHead runs)
  }

  encode(event: StreamEvent): string {
    switch (event.type) {
      case 'start':
        this.setHead(event.id, event.model);
        return this.delta('{"role":"assistant","content":""}');
      case 'block_start': {
        if (event.kind === 'text') return '';
        if (event.kind === 'reasoning') {
          this.reasoning.open(event.index, event.family);
          return '';
        }
        this.toolIndexes.set(event.index, this.toolIndexes.size);
        const id = idWithReasoning(event.id, this.pendingReasoning ?? NO_REASONING);
        this.pendingReasoning = null;
        return this.delta(
          `{"tool_calls":[{"index":${this.toolIndexes.size - 1},"id":${JSON.stringify(id)},"type":"function","function":{"name":${JSON.stringify(event.name)},"arguments":""}}]}`,
        );
      }
      case 'reasoning_delta':
        this.reasoning.get(event.index)?.addText(event.text);
        return this.delta(`{"reasoning_content":${JSON.stringify(event.text)}}`);
      case 'reasoning_state':
        this.reasoning.get(event.index)?.setState(event);
        return '';
      case 'text_delta':
        // delta(`{"content":<text>}`), in three pieces
        return this.textHead + (event.literal ?? JSON.stringify(event.text)) + TEXT_TAIL;
      case 'text_run':
        return this.runs.write(event);
      case 'tool_args_delta': {
        const toolIndex = this.toolIndexes.get(event.index) ?? 0;
        if (toolIndex !== this.argsHeadIndex) {
          this.argsHead = flattened(`data: ${this.head}"choices":[{"index":0,"delta":{"tool_calls":[{"index":${toolIndex},"function":{"arguments":`);
          this.argsHeadIndex = toolIndex;
        }
        return this.argsHead + (event.literal ?? JSON.stringify(event.json)) + ARGS_TAIL;
      }
      case 'block_stop': {
        const block = this.reasoning.close(event.index);
        if (block === undefined) return '';
        // The openai family's own state is the reasoning_content just written; another family's
        // rides in the next call's id, and in thinking_blocks for callers that echo whole messages.
        if (block.part.family === 'openai') return '';
        (this.pendingReasoning ??= []).push(block.part);
        return this.delta(`{"thinking_blocks":[${JSON.stringify(thinkingBlock(block.part))}]}`);
      }
      case 'finish':
        return sseFrame(`${this.head}"choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"${encodeFinishReason(event.reason)}"}]}`);
      case 'usage':
        // Reaches the encoder only when the caller asked for it (stream_options.include_usage).
        return sseFrame(`${this.head}"choices":[],"usage":${translateFastPath ? encodeUsageJson(event.usage) : JSON.stringify(encodeUsage(event.usage))}}`);
      case 'end':
        return sseFrame('[DONE]');
    }
  }

  error(kind: ErrorKind, message: string): string {
    return sseFrame(JSON.stringify({ error: errorObject(kind, message) }));
  }

  private delta(deltaJson: string): string {
    return sseFrame(`${this.head}"choices":[{"index":0,"delta":${deltaJson}${CHOICE_TAIL}`);
  }
}

function chunkHead(id: string, model: string): string {
  const created = Math.floor(Date.now() / 1000);
  return `{"id":${JSON.stringify(id)},"object":"chat.completion.chunk","created":${created},"model":${JSON.stringify(model)},`;
}

/** No reasoning before a tool call (most streams): shared, never written to. */
const NO_REASONING: readonly ReasoningPart[] = [];
