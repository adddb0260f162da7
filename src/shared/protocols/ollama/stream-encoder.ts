// Model stream events -> Ollama NDJSON lines, as the ollama SDK reads them: one line per text
// delta, one line per tool call once its arguments are whole (Ollama sends arguments as an
// object, so they are held until block_stop), and a final done line with the counts.
import type { ErrorKind } from '../../errors.js';
import { GatewayError } from '../../errors.js';
import type { FinishReason, StreamEvent, Usage } from '../../model/types.js';
import { ZERO_USAGE } from '../../model/types.js';
import type { StreamEncoder } from '../codec.js';
import { errorLine } from './errors.js';
import { encodeFinishReason } from './finish-reason.js';
import { doneFields, encodeToolCall } from './response.js';
import { flattened } from '../framing/flat-string.js';
import { translateFastPath } from '../fast-path/switch.js';
import { TextDeltaTemplates, type TextDeltaTemplate } from '../fast-path/text-run.js';
import type { ReasoningPart } from '../../model/types.js';
import { OpenReasoningBlocks } from '../reasoning/open-block.js';
import { idWithReasoning } from '../reasoning/call-id.js';

interface PendingCall {
  id: string;
  name: string;
  arguments: string;
}

export class OllamaStreamEncoder implements StreamEncoder {
  /** `{"model":...,"created_at":...,` written once at `start`. */
  private head = lineHead('');
  /** A text delta's line up to its string (flat: see flat-string.ts), made with the head. */
  private textHead = textHeadOf(this.head);
  private readonly calls = new Map<number, PendingCall>();
  private finishReason: FinishReason | undefined;
  private usage: Usage = ZERO_USAGE;
  /** After an error line nothing more is written. */
  private failed = false;
  /** Reasoning blocks open; what stopped since the last tool call rides in that call's id (thinking.ts). */
  private readonly reasoning = new OpenReasoningBlocks();
  private pendingReasoning: ReasoningPart[] | null = null;
  private readonly runs = new TextDeltaTemplates((e) => this.textHead + (e.literal ?? JSON.stringify(e.text)) + TEXT_TAIL);
  readonly textDeltaTemplate = translateFastPath ? (index: number): TextDeltaTemplate | null => this.runs.for(index) : undefined;

  encode(event: StreamEvent): string {
    if (this.failed) return '';
    switch (event.type) {
      case 'start':
        this.head = lineHead(event.model);
        this.textHead = textHeadOf(this.head);
        this.runs.reset();
        return '';
      case 'block_start':
        if (event.kind === 'tool_call') {
          this.calls.set(event.index, { id: idWithReasoning(event.id, this.pendingReasoning ?? NO_REASONING), name: event.name, arguments: '' });
          this.pendingReasoning = null;
        } else if (event.kind === 'reasoning') {
          this.reasoning.open(event.index, event.family);
        }
        return '';
      case 'reasoning_delta':
        this.reasoning.get(event.index)?.addText(event.text);
        return `${this.head}"message":{"role":"assistant","content":"","thinking":${JSON.stringify(event.text)}},"done":false}\n`;
      case 'reasoning_state':
        this.reasoning.get(event.index)?.setState(event);
        return '';
      case 'text_delta':
        return this.textHead + (event.literal ?? JSON.stringify(event.text)) + TEXT_TAIL;
      case 'text_run':
        return this.runs.write(event);
      case 'tool_args_delta': {
        const call = this.calls.get(event.index);
        if (call !== undefined) call.arguments += event.json;
        return '';
      }
      case 'block_stop': {
        const block = this.reasoning.close(event.index);
        // The ollama family's own state is the thinking just written; another family's rides in the next call's id.
        if (block !== undefined && block.part.family !== 'ollama') (this.pendingReasoning ??= []).push(block.part);
        return this.flushCall(event.index);
      }
      case 'finish':
        this.finishReason = event.reason;
        return '';
      case 'usage':
        this.usage = event.usage;
        return '';
      case 'end': {
        let out = '';
        for (const index of this.calls.keys()) out += this.flushCall(index);
        if (this.failed) return out;
        const done = JSON.stringify(doneFields(encodeFinishReason(this.finishReason), this.usage)).slice(1);
        return `${out}${this.head}"message":{"role":"assistant","content":""},${done}\n`;
      }
    }
  }

  error(_kind: ErrorKind, message: string): string {
    this.failed = true;
    return errorLine(message);
  }

  private flushCall(index: number): string {
    const call = this.calls.get(index);
    if (call === undefined) return '';
    this.calls.delete(index);
    let toolCall: string;
    try {
      toolCall = JSON.stringify(encodeToolCall(call));
    } catch (e) {
      // Arguments that are not a JSON object cannot be written in Ollama's shape.
      return this.error('upstream_error', e instanceof GatewayError ? e.message : 'tool call could not be encoded');
    }
    return `${this.head}"message":{"role":"assistant","content":"","tool_calls":[${toolCall}]},"done":false}\n`;
  }
}

const TEXT_TAIL = '},"done":false}\n';

function textHeadOf(head: string): string {
  return flattened(`${head}"message":{"role":"assistant","content":`);
}

function lineHead(model: string): string {
  return `{"model":${JSON.stringify(model)},"created_at":${JSON.stringify(new Date().toISOString())},`;
}

/** No reasoning before a tool call (most streams): shared, never written to. */
const NO_REASONING: readonly ReasoningPart[] = [];
