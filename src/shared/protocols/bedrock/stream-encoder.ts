// Model stream events -> converse-stream event frames, as the AWS SDK's ConverseStream reads
// them: messageStart, contentBlockStart (tool blocks only, as Bedrock does), contentBlockDelta,
// contentBlockStop, messageStop, then metadata with the final usage.
import type { StreamEvent, Usage } from '../../model/types.js';
import type { StreamEncoder } from '../codec.js';
import type { TextDeltaTemplate } from '../fast-path/text-run.js';
import type { ErrorKind } from '../../errors.js';
import { Buffer } from 'node:buffer';
import { encodeExceptionFrame, eventFrameTemplate, eventFrames, type EventFrames } from './event-stream.js';
import type { FrameTemplate } from './frame-writer.js';
import { translateFastPath } from '../fast-path/switch.js';
import { stopReasonFromFinish } from './finish-reason.js';
import { usageToBedrock, usageToBedrockJson } from './usage.js';
import { streamExceptionType } from './errors.js';
import { OpenReasoningBlocks } from '../reasoning/open-block.js';
import { carriedState, isRedacted } from './reasoning.js';

const messageStart = eventFrames('messageStart');
const contentBlockStart = eventFrames('contentBlockStart');
const contentBlockDelta = eventFrames('contentBlockDelta');
/** Delta frames per block index, shared by every stream for the first blocks (a template costs a CRC and a table). */
const SHARED_BLOCKS = 32;
const textDeltasByBlock: EventFrames[] = [];
const toolDeltasByBlock: EventFrames[] = [];
function blockDeltas(shared: EventFrames[], index: number, payloadStart: string): EventFrames {
  if (index >= SHARED_BLOCKS) return eventFrames('contentBlockDelta', payloadStart);
  return (shared[index] ??= eventFrames('contentBlockDelta', payloadStart));
}
/** A text run's frames per block index (the same bytes as textDeltasByBlock's, from the run's bytes). */
const textRunsByBlock: FrameTemplate[] = [];
function blockRuns(index: number): FrameTemplate {
  const payloadStart = `{"contentBlockIndex":${index},"delta":{"text":`;
  if (index >= SHARED_BLOCKS) return eventFrameTemplate('contentBlockDelta', payloadStart);
  return (textRunsByBlock[index] ??= eventFrameTemplate('contentBlockDelta', payloadStart));
}
const TEXT_DELTA_TAIL = Buffer.from('}}');
const contentBlockStop = eventFrames('contentBlockStop');
const messageStop = eventFrames('messageStop');
const metadata = eventFrames('metadata');

export class BedrockStreamEncoder implements StreamEncoder {
  private usage: Usage | null = null;
  /** Reasoning blocks open: their text streams as reasoningContent deltas, their state is written at their stop. */
  private readonly reasoning = new OpenReasoningBlocks();
  /** The delta frames of the block `deltaIndex`: each delta's payload differs only in its literal. */
  private deltaIndex = -1;
  private textDeltas: EventFrames = contentBlockDelta;
  private toolDeltas: EventFrames = contentBlockDelta;
  private textRuns: FrameTemplate | null = null;

  /**
   * Present (with the fast paths on) so that decoders send text runs: each delta is a frame of
   * its own with its own lengths and checksums, so there is no template to copy, but the frames
   * are written from the run's bytes (FrameTemplate.runFrames) with no string made per delta.
   */
  readonly textDeltaTemplate = translateFastPath ? (): TextDeltaTemplate | null => null : undefined;

  encode(e: StreamEvent): Uint8Array | string {
    switch (e.type) {
      case 'start':
        return messageStart('{"role":"assistant"}');
      case 'block_start':
        if (e.kind === 'reasoning') this.reasoning.open(e.index, e.family);
        if (e.kind !== 'tool_call') return ''; // Converse opens text and reasoning blocks with their first delta
        return contentBlockStart(
          JSON.stringify({
            contentBlockIndex: e.index,
            start: { toolUse: { toolUseId: e.id, name: e.name } },
          }),
        );
      case 'text_delta':
        if (e.index !== this.deltaIndex) this.deltaBlock(e.index);
        return this.textDeltas(e.literal ?? JSON.stringify(e.text), '}}');
      case 'text_run':
        if (e.index !== this.deltaIndex) this.deltaBlock(e.index);
        return (this.textRuns ??= blockRuns(e.index)).runFrames(e, TEXT_DELTA_TAIL);
      case 'tool_args_delta':
        if (e.index !== this.deltaIndex) this.deltaBlock(e.index);
        return this.toolDeltas(e.literal ?? JSON.stringify(e.json), '}}}');
      case 'reasoning_delta':
        this.reasoning.get(e.index)?.addText(e.text);
        return contentBlockDelta(JSON.stringify({ contentBlockIndex: e.index, delta: { reasoningContent: { text: e.text } } }));
      case 'reasoning_state':
        this.reasoning.get(e.index)?.setState(e);
        return '';
      case 'block_stop': {
        const stop = contentBlockStop(`{"contentBlockIndex":${e.index}}`);
        const block = this.reasoning.close(e.index);
        if (block === undefined) return stop;
        const state = carriedState(block.part);
        if (state === undefined) return stop;
        const delta = isRedacted(block.part) ? { redactedContent: state } : { signature: state };
        return joinFrames(contentBlockDelta(JSON.stringify({ contentBlockIndex: e.index, delta: { reasoningContent: delta } })), stop);
      }
      case 'finish':
        return messageStop(`{"stopReason":"${stopReasonFromFinish(e.reason)}"}`);
      case 'usage':
        this.usage = e.usage; // the last report wins; written once at the end
        return '';
      case 'end':
        if (this.usage === null) return '';
        // With the fast paths, JSON.stringify's bytes for the object from a template.
        if (translateFastPath) return metadata(`{"usage":${usageToBedrockJson(this.usage)},"metrics":{"latencyMs":0}}`);
        return metadata(JSON.stringify({ usage: usageToBedrock(this.usage), metrics: { latencyMs: 0 } }));
    }
  }

  private deltaBlock(index: number): void {
    this.deltaIndex = index;
    this.textRuns = null;
    this.textDeltas = blockDeltas(textDeltasByBlock, index, `{"contentBlockIndex":${index},"delta":{"text":`);
    this.toolDeltas = blockDeltas(toolDeltasByBlock, index, `{"contentBlockIndex":${index},"delta":{"toolUse":{"input":`);
  }

  error(kind: ErrorKind, message: string): Uint8Array {
    return encodeExceptionFrame(streamExceptionType(kind), message);
  }
}

function joinFrames(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
