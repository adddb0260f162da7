// The seeded fuzz run of the normal suite (issue 15): every property of bench/fuzz (codecs,
// JSON field scanner, SSE framing in process; the real ingress of a gateway in front of the
// mock) with a fixed seed and a small number of runs, so it is the same run every time and
// takes seconds. The long run with fresh seeds: `npm run fuzz -- --minutes 10`.
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { startMockProvider, type MockServer } from '../../src/mock/server.js';
import { startGateway, writeConfig, type RunningGateway } from '../helpers/gateway.js';
import { codecProperties } from '../../bench/fuzz/codec-properties.js';
import { fuzzConfig, fuzzSecrets } from '../../bench/fuzz/fuzz-config.js';
import { closeIngressAgent, ingressProperties, stillHealthy } from '../../bench/fuzz/ingress-properties.js';
import { adminProperties, closeAdminAgent } from '../../bench/fuzz/admin-properties.js';
import { adminNameProperties, closeAdminNameAgent } from '../../bench/fuzz/admin-name-properties.js';
import { jsonLimitsProperties } from '../../bench/fuzz/json-limits-properties.js';

const SEED = 20261123;

describe('fuzz (seeded): codecs, field scanner, SSE framing, JSON limits', () => {
  for (const p of [...codecProperties(), ...jsonLimitsProperties()]) {
    it(p.name, () => {
      fc.assert(p.property, { seed: SEED, numRuns: 150 });
    });
  }
});

describe('fuzz (seeded): the real ingress of all six protocols and the admin bodies', () => {
  let mock: MockServer;
  let gw: RunningGateway;
  const secrets = fuzzSecrets();
  before(async () => {
    mock = await startMockProvider({ port: 0 });
    const { config, providers } = fuzzConfig(mock.url, secrets);
    gw = await startGateway(writeConfig(config, providers), { workers: 1 });
  });
  after(async () => {
    await closeIngressAgent();
    await closeAdminAgent();
    await closeAdminNameAgent();
    await gw?.stop();
    await mock?.close();
  });

  it('every property holds for 100 seeded cases per protocol', async () => {
    for (const p of ingressProperties({ url: gw.url, secrets: Object.values(secrets) })) {
      await fc.assert(p.property, { seed: SEED, numRuns: 100 });
    }
  });

  it('every admin body property holds for 60 seeded cases per route (keys, groups, config validation)', async () => {
    for (const p of adminProperties({ adminUrl: gw.adminUrl, secrets: Object.values(secrets) })) {
      await fc.assert(p.property, { seed: SEED, numRuns: 60 });
    }
  });

  it('every admin name property holds for 40 seeded cases (hostile group, hook and path names; the audit still verifies; JSON limits) (issue 46)', async () => {
    for (const p of adminNameProperties({ adminUrl: gw.adminUrl, socketDir: tmpdir() })) {
      await fc.assert(p.property, { seed: SEED, numRuns: 40 });
    }
  });

  it('the gateway is still healthy and its log carries none of the provider keys', async () => {
    assert.equal(await stillHealthy(gw.url), true);
    for (const s of Object.values(secrets)) assert.ok(!gw.logs().includes(s), 'a provider key is in the gateway log');
  });
});
