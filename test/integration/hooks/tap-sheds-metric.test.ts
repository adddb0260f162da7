// gateway_hook_taps_shed_total{hook}: a tap whose hook is not there sheds every event (a tap
// never makes a request wait), and each shed is counted in the hook's series, over two workers,
// exactly once per event; a gate has no series. The exposition passes promtool.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chat, getText, scrape } from '../metrics-harness.js';
import { PROMTOOL, assertPromtoolClean, sampleValue } from '../../helpers/prometheus.js';
import { startRouting, type RoutingStack, alphaLanes } from '../routing/routing-stack.js';

const REQUESTS = 24;

describe('gateway_hook_taps_shed_total, two workers', () => {
  let dir: string;
  let stack: RoutingStack;
  const statuses: number[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gw-tap-sheds-'));
    // Nobody listens on these paths: every connect is refused, so every event is shed.
    const gone = join(dir, 'gone.sock');
    stack = await startRouting(
      (mockUrl) =>
        alphaLanes(mockUrl, ['a'], {
          pools: { chat: { members: [{ model: 'm-a' }], hooks: ['t-request', 't-completion'] } },
          hooks: {
            't-request': { kind: 'tap', at: 'request', socket: gone },
            't-completion': { kind: 'tap', at: 'completion', socket: gone },
            't-unused': { kind: 'tap', at: 'route', socket: gone },
          },
          export: { prom: { module: 'prometheus', settings: { buffer_seconds: 60 } } },
        }),
      { workers: 2 },
    );
    for (let i = 0; i < REQUESTS; i++) statuses.push(await chat(stack.gateway.url, '', 'chat'));
  });

  after(async () => {
    await stack?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it('answers every request while its taps are away', () => {
    assert.deepEqual(new Set(statuses), new Set([200]));
  });

  it('counts one shed per event per tap, summed over the workers, on every scrape', async () => {
    for (let i = 0; i < 4; i++) {
      const m = await scrape(stack.gateway.url, '');
      assert.equal(sampleValue(m, 'gateway_hook_taps_shed_total', { hook: 't-request' }), REQUESTS, `scrape ${i}`);
      assert.equal(sampleValue(m, 'gateway_hook_taps_shed_total', { hook: 't-completion' }), REQUESTS, `scrape ${i}`);
      // A tap no pool uses has its series, at zero.
      assert.equal(sampleValue(m, 'gateway_hook_taps_shed_total', { hook: 't-unused' }), 0, `scrape ${i}`);
    }
  });

  it('passes promtool check metrics', { skip: existsSync(PROMTOOL) || process.env.CI ? false : `promtool is not installed at ${PROMTOOL}` }, async () => {
    const answer = await getText(`${stack.gateway.url}/metrics`, null);
    assert.ok(assertPromtoolClean(answer.text));
  });
});
