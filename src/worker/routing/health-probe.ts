// A health probe of one lane, run by a worker on main's command (src/main/probes): a one-token
// request through the lane's own codec and upstream auth, outside the lane's permits (a probe
// must reach a saturated lane too). Success closes every breaker cell of the lane and adds
// one to the lane's ok tally (the spec's last state-table row); a failure changes nothing but
// is logged (the cells keep their own cooldowns).
import type { Logger } from '../../shared/log.js';
import type { ModelRequest } from '../../shared/model/types.js';
import { cellsOfLane } from '../../shared/routing/lane-view.js';
import type { LaneGauges } from '../lane-gauges.js';
import type { Runtime } from '../runtime.js';
import type { OutgoingRequest } from '../upstream/auth/upstream-auth.js';
import type { Router } from './router.js';

const PROBE_REQUEST: ModelRequest = {
  model: 'health-probe',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'ping' }] }],
  maxTokens: 1,
  stream: false,
};

/** Probe each lane (indexes into runtime.config.lanes); resolves when all are done. */
export async function runHealthProbes(
  runtime: Runtime,
  router: Router,
  gauges: LaneGauges,
  lanes: readonly number[],
  timeoutMs: number,
  log: Logger,
): Promise<void> {
  await Promise.all(lanes.map((i) => probeLane(runtime, router, gauges, i, timeoutMs, log)));
}

async function probeLane(runtime: Runtime, router: Router, gauges: LaneGauges, laneIndex: number, timeoutMs: number, log: Logger): Promise<void> {
  const lane = runtime.lanes[laneIndex];
  if (lane === undefined) return;
  const provider = lane.provider;
  try {
    const encoded = provider.codec.encodeRequest(PROBE_REQUEST, lane.compiled.upstreamModel);
    const headers: Record<string, string> = { 'content-type': 'application/json', ...provider.compiled.headers, ...encoded.headers };
    const outgoing: OutgoingRequest = {
      method: 'POST',
      origin: provider.compiled.origin,
      path: provider.compiled.basePath + encoded.path,
      headers,
      body: encoded.body,
    };
    if (!(await provider.auth.apply(outgoing))) {
      log.warn({ lane: lane.compiled.name }, 'health probe skipped: no upstream credential yet');
      return;
    }
    const res = await provider.dispatcher.request({
      origin: outgoing.origin,
      path: outgoing.path,
      method: 'POST',
      headers: outgoing.headers,
      body: outgoing.body,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    await res.body.dump();
    if (res.statusCode >= 200 && res.statusCode < 300) {
      router.policy.closeByHealthProbe(cellsOfLane(runtime.config, laneIndex));
      gauges.tally(lane.compiled, true);
      return;
    }
    log.warn({ lane: lane.compiled.name, status: res.statusCode }, 'health probe failed');
  } catch (err) {
    log.warn({ lane: lane.compiled.name, err: (err as Error).message }, 'health probe failed');
  }
}
