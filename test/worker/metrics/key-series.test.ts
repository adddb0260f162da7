// The key gauges across scrapes: a key's series carries its id and mint labels (group,
// budget_period) and follows a change of them; a key that is gone leaves; past the cap the
// rest is one key="_other" series. The samples are kept from scrape to scrape, so these are
// the cases where keeping them could go stale.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CompiledConfig } from '../../../src/shared/config/compiled.js';
import type { DeploymentConfig } from '../../../src/shared/config/schema/deployment.js';
import { compileMetrics } from '../../../src/main/config/compile-metrics.js';
import { KEY_SERIES_CAP } from '../../../src/shared/metrics/catalog.js';
import { WINDOW_MONTH, WINDOW_TOTAL } from '../../../src/shared/governance/windows.js';
import { SharedState, SlotRegistry, workerHolder } from '../../../src/shared/sab/index.js';
import { MetricsExposition } from '../../../src/worker/metrics/exposition.js';
import type { GovernanceSource } from '../../../src/worker/metrics/governance.js';
import { parseExposition } from '../../helpers/prometheus.js';

interface FakeKey {
  id: string;
  group: string | null;
  window: number;
}

describe('key gauges across scrapes', () => {
  const main = SharedState.create({ holders: 2 });
  const registry = new SlotRegistry(main);
  const metrics = compileMetrics({ export: { prom: { module: 'prometheus', settings: { buffer_seconds: 60 } } } } as unknown as DeploymentConfig, registry);
  const slot = registry.allocateKeySlot();
  const worker = SharedState.attach(main.buffers(), workerHolder(0));
  const config = { metrics, pools: [], lanes: [], hooks: [], auth: { chain: [], upstreamCredentials: 'own' } } as unknown as CompiledConfig;
  let keys: FakeKey[] = [];
  const governance: GovernanceSource = {
    forEachKey(visit) {
      for (const k of keys) visit(k.id, k.group, slot, k.window);
    },
    allGroups: () => [][Symbol.iterator](),
    priceOfGroup: () => ({ feeMicros: 0, rates: null }),
  };
  const exposition = new MetricsExposition(worker, governance);
  const scrape = async () => parseExposition(await exposition.render(config)).get('gateway_key_spend_cents')?.metrics ?? [];

  it('labels each key with its id, group and budget_period, and follows changes', async () => {
    keys = [
      { id: 'k1', group: 'team-a', window: WINDOW_MONTH },
      { id: 'k2', group: null, window: WINDOW_TOTAL },
    ];
    assert.deepEqual(
      (await scrape()).map((s) => s.labels),
      [
        { key: 'k1', group: 'team-a', budget_period: 'monthly' },
        { key: 'k2', group: '', budget_period: 'total' },
      ],
    );
    keys = [{ id: 'k1', group: 'team-b', window: WINDOW_MONTH }];
    assert.deepEqual(
      (await scrape()).map((s) => s.labels),
      [{ key: 'k1', group: 'team-b', budget_period: 'monthly' }],
      'moved group; k2 gone',
    );
    const tokens = parseExposition(await exposition.render(config)).get('gateway_key_tokens_total')!.metrics;
    assert.deepEqual(
      tokens.map((s) => s.labels),
      [{ key: 'k1', group: 'team-b', budget_period: 'monthly' }],
    );
  });

  it(`shows at most ${KEY_SERIES_CAP} keys and sums the rest as key="_other"`, async () => {
    keys = Array.from({ length: KEY_SERIES_CAP + 5 }, (_, i) => ({ id: `k${i}`, group: 'g', window: WINDOW_MONTH }));
    const samples = await scrape();
    assert.equal(samples.length, KEY_SERIES_CAP + 1);
    assert.deepEqual(samples.at(-1)!.labels, { key: '_other', group: '', budget_period: '' });
    keys = keys.slice(0, 3);
    assert.equal((await scrape()).length, 3, 'under the cap again: no _other');
  });
});
