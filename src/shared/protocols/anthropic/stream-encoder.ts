// Model stream events -> Anthropic SSE, in the order @anthropic-ai/sdk's MessageStream needs:
// message_start (a whole message object), content_block_start/delta/stop by index,
// message_delta (stop reason and final usage), message_stop. The model reports finish and
// usage separately; both are held and written together in message_delta at `end`.
import type { FinishReason, StreamEvent, Usage } from '../../model/types.js';
import type { StreamEncoder } from '../codec.js';
import type { ErrorKind } from '../../errors.js';
import { sseFrame } from '../framing/sse.js';
import { flattened } from '../framing/flat-string.js';
import { translateFastPath } from '../fast-path/switch.js';
import { TextDeltaTemplates, type TextDeltaTemplate } from '../fast-path/text-run.js';
import { stopReasonFromFinish } from './finish-reason.js';
import { usageToAnthropic, usageToAnthropicJson } from './usage.js';
import { errorBody } from './errors.js';
import { OpenReasoningBlocks, type OpenReasoning } from '../reasoning/open-block.js';
import { carriedSignature, isRedacted } from './thinking.js';

const TEXT_DELTA = '"text_delta","text":';
const JSON_DELTA = '"input_json_delta","partial_json":';
const DELTA_TAIL = '}}\n\n';

export class AnthropicStreamEncoder implements StreamEncoder {
  private reason: FinishReason = 'stop';
  private usage: Usage | null = null;
  /** The bytes before a delta's string for the last block and kind written (deltas come in runs). */
  private head = '';
  private headIndex = -1;
  private headKind = '';
  /** Reasoning blocks open: written as thinking (or redacted_thinking) blocks, their state at the end. */
  private readonly reasoning = new OpenReasoningBlocks();
  private readonly runs = new TextDeltaTemplates((e) => this.deltaHead(e.index, TEXT_DELTA) + (e.literal ?? JSON.stringify(e.text)) + DELTA_TAIL);
  readonly textDeltaTemplate = translateFastPath ? (index: number): TextDeltaTemplate | null => this.runs.for(index) : undefined;

  /** `event: content_block_delta` up to the delta's string, made (flat) once per run of one block's deltas. */
  private deltaHead(index: number, kind: string): string {
    if (index !== this.headIndex || kind !== this.headKind) {
      this.head = flattened(`event: content_block_delta\ndata: {"type":"content_block_delta","index":${index},"delta":{"type":${kind}`);
      this.headIndex = index;
      this.headKind = kind;
    }
    return this.head;
  }

  encode(e: StreamEvent): string {
    switch (e.type) {
      case 'start':
        // The input side when the upstream has told it by now (LangChain reads it here only);
        // else 0, and message_delta carries the totals (docs/compatibility.md).
        if (e.usage !== undefined) return sseFrame(JSON.stringify(messageStart(e.id, e.model, startUsage(e.usage))), 'message_start');
        // JSON.stringify's bytes for the object below, from a template (the fast path's reference is the object).
        if (translateFastPath) {
          return `event: message_start\ndata: {"type":"message_start","message":{"id":${JSON.stringify(e.id)},"type":"message","role":"assistant","model":${JSON.stringify(e.model)},"content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":0,"output_tokens":0}}}\n\n`;
        }
        return sseFrame(JSON.stringify(messageStart(e.id, e.model, { input_tokens: 0, output_tokens: 0 })), 'message_start');
      case 'block_start': {
        if (e.kind === 'reasoning') {
          this.reasoning.open(e.index, e.family); // opened by its first delta, or at its stop
          return '';
        }
        const block =
          e.kind === 'text' ? '{"type":"text","text":""}' : `{"type":"tool_use","id":${JSON.stringify(e.id)},"name":${JSON.stringify(e.name)},"input":{}}`;
        return `event: content_block_start\ndata: {"type":"content_block_start","index":${e.index},"content_block":${block}}\n\n`;
      }
      case 'reasoning_delta': {
        const block = this.reasoning.get(e.index);
        if (block === undefined) return '';
        block.addText(e.text);
        const delta = sseFrame(
          JSON.stringify({ type: 'content_block_delta', index: e.index, delta: { type: 'thinking_delta', thinking: e.text } }),
          'content_block_delta',
        );
        return this.openThinking(e.index, block) + delta;
      }
      case 'reasoning_state':
        this.reasoning.get(e.index)?.setState(e);
        return '';
      case 'text_delta':
        return this.deltaHead(e.index, TEXT_DELTA) + (e.literal ?? JSON.stringify(e.text)) + DELTA_TAIL;
      case 'text_run':
        return this.runs.write(e);
      case 'tool_args_delta':
        return this.deltaHead(e.index, JSON_DELTA) + (e.literal ?? JSON.stringify(e.json)) + DELTA_TAIL;
      case 'block_stop': {
        const stop = `event: content_block_stop\ndata: {"type":"content_block_stop","index":${e.index}}\n\n`;
        const block = this.reasoning.close(e.index);
        return block === undefined ? stop : this.closeThinking(e.index, block) + stop;
      }
      case 'finish':
        this.reason = e.reason;
        return '';
      case 'usage':
        this.usage = e.usage;
        return '';
      case 'end': {
        if (translateFastPath) {
          // JSON.stringify's bytes for the object below, from a template (the object is the reference).
          const usage = this.usage === null ? '{"output_tokens":0}' : usageToAnthropicJson(this.usage);
          return (
            `event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"${stopReasonFromFinish(this.reason)}","stop_sequence":null},"usage":${usage}}\n\n` +
            'event: message_stop\ndata: {"type":"message_stop"}\n\n'
          );
        }
        const usage = this.usage === null ? { output_tokens: 0 } : usageToAnthropic(this.usage);
        const delta = { type: 'message_delta', delta: { stop_reason: stopReasonFromFinish(this.reason), stop_sequence: null }, usage };
        return sseFrame(JSON.stringify(delta), 'message_delta') + sseFrame('{"type":"message_stop"}', 'message_stop');
      }
    }
  }

  error(kind: ErrorKind, message: string): string {
    return sseFrame(errorBody(kind, message), 'error');
  }

  /** A thinking block's content_block_start, the first time the block writes anything. */
  private openThinking(index: number, block: OpenReasoning): string {
    if (block.opened) return '';
    block.opened = true;
    return sseFrame(
      JSON.stringify({ type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } }),
      'content_block_start',
    );
  }

  /**
   * What a reasoning block writes at its stop: its signature (Anthropic's own, or the state of
   * another family as a token), as Anthropic sends signature_delta last; a block with only
   * encrypted data is a redacted_thinking block, written whole.
   */
  private closeThinking(index: number, block: OpenReasoning): string {
    if (!block.opened && isRedacted(block.part)) {
      block.opened = true;
      return sseFrame(
        JSON.stringify({ type: 'content_block_start', index, content_block: { type: 'redacted_thinking', data: carriedSignature(block.part) } }),
        'content_block_start',
      );
    }
    const signature = { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: carriedSignature(block.part) } };
    return this.openThinking(index, block) + sseFrame(JSON.stringify(signature), 'content_block_delta');
  }
}

function messageStart(id: string, model: string, usage: Record<string, number>): Record<string, unknown> {
  return {
    type: 'message_start',
    message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage },
  };
}

/** message_start's usage from what the upstream told before any content: the input side, output 0 (message_delta has it). */
function startUsage(u: Usage): Record<string, number> {
  return { ...usageToAnthropic(u), output_tokens: 0 };
}
