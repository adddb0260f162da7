// What the request's end tells the tracer: a summary of the request and of each upstream
// attempt, with the times read on the request path (performance.now(), ms). The spans are made
// from it after the fact, with these times as their start and end, so a traced request costs
// nothing until it ends, and an untraced one nothing at all.
import type { ModelRequest, ProtocolName, Usage } from '../../shared/model/types.js';
import type { AttemptOutcome, Disposition } from '../../shared/routing/attempt-outcome.js';

/** One upstream attempt, as the request path saw it. */
export interface AttemptRecord {
  /** Hex span id, sent upstream in its traceparent. */
  spanId: string;
  lane: string;
  /** The provider's config name. */
  provider: string;
  protocol: ProtocolName;
  upstreamModel: string;
  /** Scheme, host and port of the upstream. */
  origin: string;
  sentMs: number;
  /** 0 while in flight (a request that ends without ending it: the request's end). */
  endedMs: number;
  outcome: AttemptOutcome;
  /** The upstream's HTTP status; 0 when none came (a connect failure, a timeout). */
  status: number;
}

export interface RequestSummary {
  /** gen_ai.operation.name: `chat` for every chat route. */
  operation: string;
  ingressProtocol: ProtocolName;
  /** The model (pool or lane) the caller named. */
  requestModel: string;
  stream: boolean;
  /** The pool ("" for a direct route or a request refused before a target). */
  pool: string;
  disposition: Disposition;
  /** The HTTP status answered; 0 when not known. */
  status: number;
  usage: Usage | null;
  /** The model the upstream answered with; "" when it did not say (the lane's upstream model stands in). */
  responseModel: string;
  finishReasons: readonly string[];
  /** The caller's key id ("" on the open front door). */
  keyId: string;
  /** The key's group ("" when none). */
  group: string;
  /** The governance bucket that refused the request (group:<name>@<window>), "" otherwise. */
  bucket: string;
  startedMs: number;
  /** When the first byte of a successful answer was written; 0 when none was. */
  firstByteMs: number;
  endedMs: number;
  /** The request's system text and messages, only when the export's include_prompt is on (null otherwise). */
  prompt: Pick<ModelRequest, 'system' | 'messages'> | null;
}
