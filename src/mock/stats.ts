// What the mock counts, for tests to assert on (notably `aborted`: the gateway must cancel
// its upstream request when its own client goes away).
import { MOCK_PROTOCOL_NAMES, type MockProtocolName } from './protocols/types.js';

interface LastRequestSummary {
  protocol: MockProtocolName;
  method: string;
  path: string;
  model: string | null;
  stream: boolean | null;
  at_ms: number;
}

export interface MockStats {
  /** Model requests received (control routes and the token endpoint are not counted). */
  requests: number;
  requests_by_protocol: Record<MockProtocolName, number>;
  /** Requests received and not yet finished, aborted or reset. */
  inflight: number;
  /** The highest `inflight` seen since start or the last reset. */
  peak_inflight: number;
  /** Responses written to the end (error statuses included). */
  completed: number;
  /** The client went away before the response was finished. */
  aborted: number;
  /** Connections the mock destroyed itself (fault reset_before / reset_during). */
  resets: number;
  /** Access tokens minted by POST /oauth2/token. */
  tokens_minted: number;
  last_request: LastRequestSummary | null;
}

export function emptyStats(): MockStats {
  const byProtocol = {} as Record<MockProtocolName, number>;
  for (const name of MOCK_PROTOCOL_NAMES) byProtocol[name] = 0;
  return {
    requests: 0,
    requests_by_protocol: byProtocol,
    inflight: 0,
    peak_inflight: 0,
    completed: 0,
    aborted: 0,
    resets: 0,
    tokens_minted: 0,
    last_request: null,
  };
}

/** A model request arrived: counted, and in flight until it is finished, aborted or reset. */
export function countArrival(stats: MockStats, protocol: MockProtocolName): void {
  stats.requests++;
  stats.requests_by_protocol[protocol]++;
  stats.inflight++;
  if (stats.inflight > stats.peak_inflight) stats.peak_inflight = stats.inflight;
}

/** A copy that later counting does not change. */
export function snapshotStats(stats: MockStats): MockStats {
  return {
    ...stats,
    requests_by_protocol: { ...stats.requests_by_protocol },
    last_request: stats.last_request === null ? null : { ...stats.last_request },
  };
}
