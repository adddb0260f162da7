// A worker's hook connections count a tap's sheds into that hook's series of the config in
// force (gateway_hook_taps_shed_total), on the connection it keeps across applies; a gate has
// no series, and without shared memory nothing is counted.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import type { CompiledHook } from '../../../src/shared/config/compiled.js';
import { HOOK_TAPS_SHED_TOTAL, seriesKey } from '../../../src/shared/metrics/catalog.js';
import { SharedState, SlotRegistry } from '../../../src/shared/sab/index.js';
import { HookConnections } from '../../../src/worker/hooks/hook-connections.js';

function hook(name: string, kind: 'tap' | 'gate', tapsShedSlot: number): CompiledHook {
  return {
    name,
    kind,
    transport: 'socket',
    target: join(tmpdir(), `gw-no-such-hook-${process.pid}.sock`),
    secret: '',
    prompt: 'no',
    user: 'no',
    priority: 0,
    at: kind === 'tap' ? 'request' : null,
    onError: { terminal: 'nothing' },
    timeoutMs: 1000,
    settings: {},
    settingsVersion: 1,
    global: false,
    tapsShedSlot,
  };
}

describe('HookConnections shed counting', () => {
  it("counts a tap's sheds in its series, keeps doing so across applies, and never for a gate", () => {
    const shared = SharedState.create({ holders: 2 });
    const registry = new SlotRegistry(shared);
    const slot = registry.metricSeries(seriesKey(HOOK_TAPS_SHED_TOTAL, ['t']), { kind: 'counter' });
    shared.ensureBytes(registry.bytesNeeded());
    const connections = new HookConnections();
    try {
      const [tap, gate] = connections.sync([hook('t', 'tap', slot), hook('g', 'gate', -1)], shared);
      tap!.shedTap();
      tap!.send({ type: 'tap', at: 'request', event: { request_id: 'r', pool: 'p', protocol: 'openai', model: 'm', stream: false } });
      assert.equal(shared.metrics.counterValue(slot), 2, 'a shed event and a refused send');
      assert.equal(gate!.onShed, null);
      // The next apply keeps the connection, and its counting.
      const [again] = connections.sync([hook('t', 'tap', slot)], shared);
      assert.equal(again, tap);
      again!.shedTap();
      assert.equal(shared.metrics.counterValue(slot), 3);
      // No shared memory (main's own uses): counted on the transport only.
      const [plain] = new HookConnections().sync([hook('u', 'tap', slot)]);
      assert.equal(plain!.onShed, null);
      plain!.close();
    } finally {
      connections.closeAll();
    }
  });
});
