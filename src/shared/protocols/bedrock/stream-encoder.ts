// Model stream events -> converse-stream event frames, as the AWS SDK's ConverseStream reads
// them: messageStart, contentBlockStart (tool blocks only, as Bedrock does), contentBlockDelta,
// contentBlockStop, messageStop, then metadata with the final usage.
import type { StreamEvent, Usage } from '../../model/types.js';
import type { StreamEncoder } from '../codec.js';
import type { ErrorKind } from '../../errors.js';
import { encodeEventFrame, encodeExceptionFrame } from './event-stream.js';
import { stopReasonFromFinish } from './finish-reason.js';
import { usageToBedrock } from './usage.js';
import { streamExceptionType } from './errors.js';

export class BedrockStreamEncoder implements StreamEncoder {
  private usage: Usage | null = null;

  encode(e: StreamEvent): Uint8Array | string {
    switch (e.type) {
      case 'start':
        return encodeEventFrame('messageStart', '{"role":"assistant"}');
      case 'block_start':
        if (e.kind === 'text') return ''; // Converse opens text blocks with their first delta
        return encodeEventFrame('contentBlockStart', JSON.stringify({
          contentBlockIndex: e.index, start: { toolUse: { toolUseId: e.id, name: e.name } },
        }));
      case 'text_delta':
        return encodeEventFrame('contentBlockDelta', `{"contentBlockIndex":${e.index},"delta":{"text":${e.literal ?? JSON.stringify(e.text)}}}`);
      case 'tool_args_delta':
        return encodeEventFrame('contentBlockDelta', `{"contentBlockIndex":${e.index},"delta":{"toolUse":{"input":${e.literal ?? JSON.stringify(e.json)}}}}`);
      case 'block_stop':
        return encodeEventFrame('contentBlockStop', `{"contentBlockIndex":${e.index}}`);
      case 'finish':
        return encodeEventFrame('messageStop', `{"stopReason":"${stopReasonFromFinish(e.reason)}"}`);
      case 'usage':
        this.usage = e.usage; // the last report wins; written once at the end
        return '';
      case 'end':
        if (this.usage === null) return '';
        return encodeEventFrame('metadata', JSON.stringify({ usage: usageToBedrock(this.usage), metrics: { latencyMs: 0 } }));
    }
  }

  error(kind: ErrorKind, message: string): Uint8Array {
    return encodeExceptionFrame(streamExceptionType(kind), message);
  }
}
