// What relaying the current attempt's answer keeps: how it travels back, what was buffered,
// the stream codecs, the usage seen. One per request (its attempt loop's), reset per attempt.
import type { Buffer } from 'node:buffer';
import type { Usage } from '../../../shared/model/types.js';
import type { PassthroughStream, StreamDecoder, StreamEncoder } from '../../../shared/protocols/codec.js';
import type { LaneRuntime } from '../../runtime.js';
import type { AttemptControl } from '../../upstream/upstream-attempt.js';
import type { Answer } from '../end/answer.js';

/** How the current attempt's response travels back. */
export const enum Relay {
  /** Not decided yet (no response start). */
  None,
  /** Same protocol, streamed: bytes pass through, usage sniffed. */
  PassStream,
  /** Same protocol, not streamed: buffered (for usage), written whole. */
  PassBody,
  /** Same protocol body over the translate cap: streamed through unparsed, billed zero. */
  PassOversize,
  /** Cross protocol, streamed: decoded and re-encoded chunk by chunk. */
  TranslateStream,
  /** Cross protocol, not streamed: buffered, decoded, re-encoded. */
  TranslateBody,
  /** Upstream answered an error status: buffered, then failed over or relayed. */
  ErrorBody,
  /** The attempt already ended (the attempt loop decided): later callbacks are ignored. */
  Done,
}

export class RelayState {
  /** The lane the current attempt went to. */
  lane: LaneRuntime | null = null;
  /** The current attempt once undici has sent it (it can be paused and aborted then). */
  controller: AttemptControl | null = null;
  relay = Relay.None;
  status = 0;
  contentType = '';
  retryAfter = '';
  chunks: Buffer[] = [];
  bufferedBytes = 0;
  passthrough: PassthroughStream | null = null;
  decoder: StreamDecoder | null = null;
  encoder: StreamEncoder | null = null;
  usage: Usage | null = null;
  truncated = false;
  errorHeaders: Record<string, string | string[] | undefined> | null = null;
  /** Made once, on the first backpressure: resumes whichever attempt is current. */
  resumeUpstream: (() => void) | null = null;
  /** relayEnd's Complete: what the request ends with. */
  answer: Answer | null = null;
  /** StreamBroke: why. */
  brokeMessage = '';
  /** Monotonic ms when the first byte of this attempt's successful answer was written; 0 = none yet. */
  firstByteMs = 0;

  /** A new attempt to `lane`: nothing of the last one's answer is kept. */
  reset(lane: LaneRuntime): void {
    this.lane = lane;
    this.controller = null;
    this.relay = Relay.None;
    this.status = 0;
    this.contentType = '';
    this.retryAfter = '';
    this.chunks = [];
    this.bufferedBytes = 0;
    this.passthrough = null;
    this.decoder = null;
    this.encoder = null;
    this.usage = null;
    this.truncated = false;
    this.errorHeaders = null;
    this.answer = null;
    this.brokeMessage = '';
    this.firstByteMs = 0;
  }
}
