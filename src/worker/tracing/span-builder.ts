// The spans of one finished request, made after the fact from its summary with the times the
// request path read: a server span (the caller's traceparent as its parent) and a client span
// per upstream attempt under it, whose ids are the ones sent upstream (IdGenerator below hands
// the SDK the ids the trace already has). GenAI semantic-convention attributes on both; the
// pool, lane, failover and governance facts as gateway.* attributes.
import { performance } from 'node:perf_hooks';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, trace, type Attributes, type Tracer } from '@opentelemetry/api';
import type { IdGenerator } from '@opentelemetry/sdk-trace-base';
import { ATTR_ERROR_TYPE, ATTR_HTTP_RESPONSE_STATUS_CODE, ATTR_SERVER_ADDRESS, ATTR_SERVER_PORT } from '@opentelemetry/semantic-conventions';
import type { ModelMessage } from '../../shared/model/types.js';
import { RequestOutcome } from '../../shared/metrics/catalog.js';
import {
  AttemptOutcome,
  DISPOSITION_NAMES,
  Disposition,
  FAILOVER_REASON_NAMES,
  FailoverReason,
  failoverReasonOf,
} from '../../shared/routing/attempt-outcome.js';
import { outcomeOf } from '../metrics/request-series.js';
import * as A from './gen-ai-attributes.js';
import type { RequestTrace } from './request-trace.js';
import type { AttemptRecord, RequestSummary } from './request-summary.js';

/** Hands the SDK the ids this trace already chose (set just before each startSpan). */
export class PresetIdGenerator implements IdGenerator {
  traceId = '';
  spanId = '';

  generateTraceId(): string {
    return this.traceId;
  }

  generateSpanId(): string {
    return this.spanId;
  }
}

/** A performance.now() reading as epoch ms (what the SDK takes as a start or end time). */
function epochMs(perfMs: number): number {
  return performance.timeOrigin + perfMs;
}

function portOf(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/** The request's messages in the conventions' shape: role and parts. */
function inputMessages(messages: readonly ModelMessage[]): string {
  return JSON.stringify(
    messages.map((m) => ({
      role: m.role,
      parts: m.content.map((part) => {
        switch (part.type) {
          case 'text':
            return { type: 'text', content: part.text };
          case 'tool_call':
            return { type: 'tool_call', id: part.id, name: part.name, arguments: part.arguments };
          case 'tool_result':
            return { type: 'tool_call_response', id: part.toolCallId, response: part.content };
          default:
            return { type: part.type };
        }
      }),
    })),
  );
}

function attemptAttributes(a: AttemptRecord, operation: string, failover: FailoverReason): Attributes {
  const url = new URL(a.origin);
  const attributes: Attributes = {
    [A.GEN_AI_OPERATION_NAME]: operation,
    [A.GEN_AI_PROVIDER_NAME]: A.GEN_AI_PROVIDER_OF_PROTOCOL[a.protocol],
    [A.GEN_AI_REQUEST_MODEL]: a.upstreamModel,
    [ATTR_SERVER_ADDRESS]: url.hostname,
    [ATTR_SERVER_PORT]: portOf(url),
    [A.GATEWAY_LANE]: a.lane,
    [A.GATEWAY_PROVIDER]: a.provider,
    [A.GATEWAY_ATTEMPT_OUTCOME]: A.ATTEMPT_OUTCOME_NAMES[a.outcome],
  };
  if (a.status !== 0) attributes[ATTR_HTTP_RESPONSE_STATUS_CODE] = a.status;
  if (a.outcome !== AttemptOutcome.Ok) attributes[ATTR_ERROR_TYPE] = a.status >= 400 ? String(a.status) : A.ATTEMPT_OUTCOME_NAMES[a.outcome];
  if (failover !== FailoverReason.None) attributes[A.GATEWAY_FAILOVER_REASON] = FAILOVER_REASON_NAMES[failover];
  return attributes;
}

/** Makes and ends the request's spans (they go to the provider's processor at once). */
export function buildSpans(tracer: Tracer, ids: PresetIdGenerator, t: RequestTrace, s: RequestSummary): void {
  const served = t.attempts[t.attempts.length - 1];
  const ok = s.disposition === Disposition.Ok;
  const responseModel = t.responseModel !== '' ? t.responseModel : s.responseModel !== '' ? s.responseModel : (served?.upstreamModel ?? '');
  const finishReasons = t.finishReasons.length > 0 ? t.finishReasons : s.finishReasons;
  const failovers: string[] = [];
  for (let i = 0; i < t.attempts.length - 1; i++) {
    const reason = failoverReasonOf(t.attempts[i]!.outcome);
    if (reason !== FailoverReason.None) failovers.push(FAILOVER_REASON_NAMES[reason]);
  }

  const attributes: Attributes = {
    [A.GEN_AI_OPERATION_NAME]: s.operation,
    [A.GEN_AI_REQUEST_MODEL]: s.requestModel,
    [A.GEN_AI_REQUEST_STREAM]: s.stream,
    [A.GATEWAY_INGRESS_PROTOCOL]: s.ingressProtocol,
    [A.GATEWAY_POOL]: s.pool,
    [A.GATEWAY_DISPOSITION]: DISPOSITION_NAMES[s.disposition],
    [A.GATEWAY_ATTEMPTS]: t.attempts.length,
  };
  if (served !== undefined) {
    attributes[A.GEN_AI_PROVIDER_NAME] = A.GEN_AI_PROVIDER_OF_PROTOCOL[served.protocol];
    attributes[A.GATEWAY_LANE] = served.lane;
    attributes[A.GATEWAY_PROVIDER] = served.provider;
  }
  if (ok && responseModel !== '') attributes[A.GEN_AI_RESPONSE_MODEL] = responseModel;
  if (finishReasons.length > 0) attributes[A.GEN_AI_RESPONSE_FINISH_REASONS] = [...finishReasons];
  const usage = s.usage;
  if (usage !== null) {
    attributes[A.GEN_AI_USAGE_INPUT_TOKENS] = usage.input + usage.cacheRead + usage.cacheCreation;
    attributes[A.GEN_AI_USAGE_OUTPUT_TOKENS] = usage.output;
    attributes[A.GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS] = usage.cacheRead;
    attributes[A.GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS] = usage.cacheCreation;
  }
  if (s.firstByteMs > 0) attributes[A.GEN_AI_RESPONSE_TIME_TO_FIRST_CHUNK] = (s.firstByteMs - s.startedMs) / 1000;
  if (failovers.length > 0) attributes[A.GATEWAY_FAILOVER_REASONS] = failovers;
  if (s.status !== 0) attributes[ATTR_HTTP_RESPONSE_STATUS_CODE] = s.status;
  if (!ok) attributes[ATTR_ERROR_TYPE] = DISPOSITION_NAMES[s.disposition];
  if (s.keyId !== '') attributes[A.GATEWAY_KEY_ID] = s.keyId;
  if (s.group !== '') attributes[A.GATEWAY_GOVERNANCE_GROUP] = s.group;
  if (s.bucket !== '') attributes[A.GATEWAY_GOVERNANCE_BUCKET] = s.bucket;
  if (s.prompt !== null) {
    attributes[A.GEN_AI_INPUT_MESSAGES] = inputMessages(s.prompt.messages);
    if (s.prompt.system !== undefined && s.prompt.system !== '')
      attributes[A.GEN_AI_SYSTEM_INSTRUCTIONS] = JSON.stringify([{ type: 'text', content: s.prompt.system }]);
  }

  const parent =
    t.parentSpanId === ''
      ? ROOT_CONTEXT
      : trace.setSpanContext(ROOT_CONTEXT, { traceId: t.traceId, spanId: t.parentSpanId, traceFlags: TraceFlags.SAMPLED, isRemote: true });
  ids.traceId = t.traceId;
  ids.spanId = t.serverSpanId;
  const server = tracer.startSpan(`${s.operation} ${s.requestModel}`, { kind: SpanKind.SERVER, startTime: epochMs(s.startedMs), attributes }, parent);
  // The spec's outcomes: a gateway or upstream failure is an error; the caller's own 4xx is not (HTTP server spans).
  const outcome = outcomeOf(s.disposition);
  if (outcome === RequestOutcome.Error || outcome === RequestOutcome.Exhausted)
    server.setStatus({ code: SpanStatusCode.ERROR, message: DISPOSITION_NAMES[s.disposition] });

  const underServer = trace.setSpan(ROOT_CONTEXT, server);
  for (let i = 0; i < t.attempts.length; i++) {
    const a = t.attempts[i]!;
    const last = i === t.attempts.length - 1;
    const endedMs = a.endedMs !== 0 ? a.endedMs : s.endedMs;
    const attemptAttrs = attemptAttributes(a, s.operation, last ? FailoverReason.None : failoverReasonOf(a.outcome));
    if (last && a.outcome === AttemptOutcome.Ok && usage !== null) {
      attemptAttrs[A.GEN_AI_USAGE_INPUT_TOKENS] = attributes[A.GEN_AI_USAGE_INPUT_TOKENS]!;
      attemptAttrs[A.GEN_AI_USAGE_OUTPUT_TOKENS] = usage.output;
      if (responseModel !== '') attemptAttrs[A.GEN_AI_RESPONSE_MODEL] = responseModel;
      if (finishReasons.length > 0) attemptAttrs[A.GEN_AI_RESPONSE_FINISH_REASONS] = [...finishReasons];
    }
    ids.spanId = a.spanId;
    const span = tracer.startSpan(
      `${s.operation} ${a.upstreamModel}`,
      { kind: SpanKind.CLIENT, startTime: epochMs(a.sentMs), attributes: attemptAttrs },
      underServer,
    );
    if (a.outcome !== AttemptOutcome.Ok && a.outcome !== AttemptOutcome.ClientError && a.outcome !== AttemptOutcome.CallerAbort) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: A.ATTEMPT_OUTCOME_NAMES[a.outcome] });
    }
    span.end(epochMs(endedMs));
  }
  server.end(epochMs(s.endedMs));
}
