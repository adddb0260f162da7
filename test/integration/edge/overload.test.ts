// Load shedding (issue 15): past advanced.max_inflight_per_worker a worker answers a data-plane
// request at once with 503 and Retry-After in the caller's own protocol, shows
// `availability: shedding` in GET /stats, and keeps serving once the load falls. At five times
// the threshold every request is answered (served or shed) and the process stays up. Nothing
// here is timed: requests are held in flight with the mock's `hang` fault until the test lets
// them go, and the second test counts answers, not milliseconds.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { minimalRequest, rawPost } from '../../helpers/clients/raw.js';
import type { MockServer } from '../../../src/mock/server.js';
import type { RunningGateway } from '../../helpers/gateway.js';
import { eventually, suiteStack } from '../../helpers/clients/stack.js';
import type { ProtocolName } from '../../../src/shared/model/types.js';

const LIMIT = 4;
const PROTOCOLS: ProtocolName[] = ['openai', 'responses', 'anthropic', 'gemini', 'bedrock', 'ollama'];

/** A request left open (the mock hangs it) until `release` destroys it. */
function hold(url: string, body: string): { req: ClientRequest; release(): void } {
  const req = httpRequest(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
    agent: false,
  });
  req.on('error', () => undefined);
  req.end(body);
  return { req, release: () => req.destroy() };
}

/** The protocol's own error shape, checked loosely per protocol. */
function assertShape(protocol: ProtocolName, status: number, headers: Record<string, unknown>, body: string): void {
  assert.equal(status, 503, `${protocol}: ${body}`);
  assert.equal(headers['retry-after'], '1', `${protocol}: Retry-After`);
  const doc = JSON.parse(body) as Record<string, any>;
  switch (protocol) {
    case 'openai':
    case 'responses':
      assert.equal(typeof doc.error?.message, 'string', `${protocol}: ${body}`);
      break;
    case 'anthropic':
      assert.equal(doc.type, 'error', body);
      break;
    case 'gemini':
      assert.equal(doc.error?.code, 503, body);
      break;
    case 'bedrock':
      assert.equal(typeof headers['x-amzn-errortype'], 'string', 'bedrock: x-amzn-errortype');
      break;
    case 'ollama':
      assert.equal(typeof doc.error, 'string', body);
      break;
  }
  assert.match(body, /in-flight limit/);
}

async function stats(gw: RunningGateway): Promise<Record<string, any>> {
  const res = await rawPost(`${gw.url}/stats`, '', { method: 'GET' });
  assert.equal(res.status, 200);
  return JSON.parse(res.body.toString()) as Record<string, any>;
}

describe('load shedding over advanced.max_inflight_per_worker', () => {
  const stack = suiteStack({ workers: 1, over: { advanced: { max_inflight_per_worker: LIMIT } } });
  let mock: MockServer;
  let gw: RunningGateway;
  before(async () => {
    ({ mock, gateway: gw } = stack);
  });

  it('sheds with 503 + Retry-After in every protocol while the limit is held, shows shedding in /stats, then serves again', async () => {
    const held = Array.from({ length: LIMIT }, (_, i) => {
      const r = minimalRequest('openai', 'pool-openai', `held ${i} [mock fault=hang]`, false);
      return hold(`${gw.url}${r.path}`, r.body);
    });
    try {
      assert.ok(await eventually(() => mock.stats().inflight === LIMIT, 10_000), 'the held requests reached the upstream');
      for (const protocol of PROTOCOLS) {
        for (const stream of [false, true]) {
          const r = minimalRequest(protocol, `pool-${protocol}`, 'one too many', stream);
          const res = await rawPost(`${gw.url}${r.path}`, r.body);
          assertShape(protocol, res.status, res.headers as Record<string, unknown>, res.body.toString());
        }
      }
      const view = await stats(gw);
      assert.equal(view.overload.shedding, true);
      assert.equal(view.overload.max_inflight_per_worker, LIMIT);
      assert.ok(view.overload.shed_total >= PROTOCOLS.length * 2);
      assert.ok(
        (view.lanes as Array<{ availability: string }>).every((l) => l.availability === 'shedding'),
        JSON.stringify(view.lanes.map((l: any) => l.availability)),
      );
      assert.equal(mock.stats().inflight, LIMIT, 'no shed request reached the upstream');
    } finally {
      for (const h of held) h.release();
    }
    assert.ok(await eventually(() => mock.stats().inflight === 0, 10_000), 'the held requests ended upstream too');
    const r = minimalRequest('anthropic', 'pool-anthropic', 'after the storm', false);
    // The worker counts a request out when its connection closes: wait until the held ones are.
    let res = await rawPost(`${gw.url}${r.path}`, r.body);
    for (let i = 0; i < 200 && res.status === 503; i++) {
      await new Promise((done) => setTimeout(done, 10));
      res = await rawPost(`${gw.url}${r.path}`, r.body);
    }
    assert.equal(res.status, 200, res.body.toString());
  });

  it('at five times the threshold answers every request (served or shed) and stays up', async () => {
    const before = (await stats(gw)).overload.shed_total as number;
    const statuses = new Map<number, number>();
    for (let round = 0; round < 4; round++) {
      const answers = await Promise.all(
        Array.from({ length: LIMIT * 5 }, (_, i) => {
          const protocol = PROTOCOLS[i % PROTOCOLS.length]!;
          const r = minimalRequest(protocol, `pool-${protocol}`, `round ${round} [mock latency_ms=50]`, i % 2 === 0);
          return rawPost(`${gw.url}${r.path}`, r.body);
        }),
      );
      for (const a of answers) statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
    }
    const served = statuses.get(200) ?? 0;
    const shed = statuses.get(503) ?? 0;
    assert.equal(served + shed, 4 * LIMIT * 5, `only 200 and 503: ${JSON.stringify([...statuses])}`);
    assert.ok(served > 0, 'some were served');
    assert.equal((await stats(gw)).overload.shed_total - before, shed, 'every 503 was a shed, counted');
    assert.equal(gw.proc.exitCode, null, 'the gateway is still running');
    assert.equal((await rawPost(`${gw.url}/healthz`, '', { method: 'GET' })).status, 200);
  });
});
