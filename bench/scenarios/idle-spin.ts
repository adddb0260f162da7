// The idle spin on and off (issue 48): CPU per request and p50 of scenario 1's request at one
// connection, at 64, and at a fixed moderate rate (16 connections to a mock that answers after
// 20 ms: about 800 req/s, where production upstreams sit), each with `advanced.idle_spin_us`
// 1000 and 0. Named only: `--scenario idle-spin --repeats 1` runs the six rows in one go; each
// "on" row is compared with its "off" row (reference). The spin is off by default
// (docs/decisions/300-idle-spin-opt-in.md): these rows say what turning it on buys and costs.
import type { GatewayConfigFiles, Scenario, ScenarioRequest } from '../scenario.js';
import { OPENAI_NONSTREAM_REQUEST, openaiChatBody } from '../request-bodies.js';

/** The mock's answer delay of the moderate-rate rows, and their connections. */
const RATE_LATENCY_MS = 20;
const RATE_CONNECTIONS = 16;

const RATE_REQUEST: ScenarioRequest = {
  ...OPENAI_NONSTREAM_REQUEST,
  body: openaiChatBody({ model: 'default', stream: false, mock: `latency_ms=${RATE_LATENCY_MS}` }),
};

function spin(idleSpinUs: number): (files: GatewayConfigFiles) => void {
  return (files) => {
    files.gateway.advanced = { ...(files.gateway.advanced as Record<string, unknown>), idle_spin_us: idleSpinUs };
  };
}

interface Load {
  key: string;
  what: string;
  connections: number;
  request: ScenarioRequest;
}

const LOADS: readonly Load[] = [
  { key: '1', what: 'one connection', connections: 1, request: OPENAI_NONSTREAM_REQUEST },
  { key: '64', what: '64 connections', connections: 64, request: OPENAI_NONSTREAM_REQUEST },
  {
    key: 'rate',
    what: `about ${Math.round((RATE_CONNECTIONS * 1000) / RATE_LATENCY_MS)} req/s (${RATE_CONNECTIONS} connections, upstream answers after ${RATE_LATENCY_MS} ms)`,
    connections: RATE_CONNECTIONS,
    request: RATE_REQUEST,
  },
];

export const scenarios: Scenario[] = LOADS.flatMap((load, i): Scenario[] => [
  {
    name: `idle-spin-off-${load.key}`,
    title: `Scenario 1's request at ${load.what}, idle spin off (advanced.idle_spin_us: 0, the default)`,
    kind: 'throughput',
    request: load.request,
    targets: ['gateway'],
    connections: load.connections,
    durationSecs: 5,
    expect: { bodyIncludes: '"choices"' },
    gatewayConfig: spin(0),
    group: 'idle-spin',
    namedOnly: true,
    order: 400 + i * 2,
  },
  {
    name: `idle-spin-on-${load.key}`,
    title: `Scenario 1's request at ${load.what}, idle spin on (advanced.idle_spin_us: 1000)`,
    kind: 'throughput',
    request: load.request,
    targets: ['gateway'],
    connections: load.connections,
    durationSecs: 5,
    expect: { bodyIncludes: '"choices"' },
    gatewayConfig: spin(1000),
    reference: `idle-spin-off-${load.key}`,
    group: 'idle-spin',
    namedOnly: true,
    order: 401 + i * 2,
  },
]);
