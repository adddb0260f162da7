// 1t. Scenario 1 with a tap at every stage (request, route, attempt, completion) on one socket
// hook that blocks 1 s on every event it reads, so it falls hopelessly behind: taps are
// fire-and-forget with a bounded queue per hook, so the requests must not notice. Run beside
// openai-nonstream (`--scenario openai-nonstream,openai-nonstream-slow-tap`): the report's
// "vs reference" gives the p99 ratio (issue 11: within 10%).
import type { Scenario } from '../scenario.js';
import { OPENAI_NONSTREAM_REQUEST } from '../request-bodies.js';
import { startExampleSocketHook } from '../example-hook.js';

const STAGES = ['request', 'route', 'attempt', 'completion'] as const;

export const scenario: Scenario = {
  name: 'openai-nonstream-slow-tap',
  title: 'OpenAI chat, non-stream, with a tap at all four stages that sleeps 1 s on every event',
  kind: 'throughput',
  request: OPENAI_NONSTREAM_REQUEST,
  targets: ['gateway'],
  connections: 64,
  durationSecs: 5,
  expect: { bodyIncludes: '"choices"' },
  gatewayConfig(files) {
    const socket = startExampleSocketHook('slow-tap', files.proxyCores ?? null);
    const hooks: Record<string, unknown> = {};
    for (const at of STAGES) hooks[`slow-${at}`] = { kind: 'tap', at, socket, global: true, settings: { tap_sleep_ms: 1000 } };
    files.gateway.hooks = hooks;
  },
  reference: 'openai-nonstream',
  order: 11.5,
};
