import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { join } from 'node:path';
import type { SlotAssigner } from '../../../src/shared/config/compiled.js';
import { compileConfig } from '../../../src/main/config/compile.js';
import { loadConfig } from '../../../src/main/config/load.js';
import { configDir, minimalConfig, removeConfigDirs } from './config-dir.js';
import { DISPOSITION_NAMES } from '../../../src/shared/routing/attempt-outcome.js';

after(removeConfigDirs);

/** A counter per kind of slot; the same name always gets the same slot. */
function fakeSlots(): SlotAssigner {
  const slots = new Map<string, number>();
  const slotOf = (key: string) => {
    if (!slots.has(key)) slots.set(key, slots.size);
    return slots.get(key)!;
  };
  return {
    laneSlot: (lane) => slotOf(`lane:${lane}`),
    cellSlot: (pool, lane) => slotOf(`cell:${pool}/${lane}`),
    defaultCellSlot: (lane) => slotOf(`default:${lane}`),
    metricSeries: (key) => slotOf(`metric:${key}`),
    bytesNeeded: () => slots.size * 64,
    holders: 2,
  };
}

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
const SERVICE_ACCOUNT_PEM = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

async function loaded(config: Record<string, unknown>, providers: Record<string, unknown>, env: NodeJS.ProcessEnv = {}, files: Record<string, string> = {}) {
  const dir = configDir({ 'gateway.yaml': config, 'providers.yaml': { providers }, ...files });
  const result = await loadConfig({ configPath: join(dir, 'gateway.yaml'), safeMode: false, purpose: 'boot', env });
  assert.deepEqual(result.errors, []);
  return result;
}

describe('compileConfig', () => {
  it('compiles lanes, pools, limits and listen', async () => {
    const config = minimalConfig();
    config.listen = '[::1]:8090';
    config.models.m2 = { provider: 'up', upstream_model: 'real-name', max_concurrent: 4, max_requests: 100 };
    config.pools.main.members.push({ model: 'm2', weight: 3 });
    config.pools.main.on_exhausted = 'least_bad';
    config.pools.main.failover = { max_hops: 1, timeout_secs: 2.5 };
    config.pools.backup = { members: [{ model: 'm2' }], on_exhausted: { fallback_pool: 'main' }, breaker: { trip: 'error_rate', window_secs: 30 } };
    config.pools.plain = { members: [{ model: 'm1' }], on_exhausted: 'status_503' };
    config.advanced = { max_body_bytes: 1000, max_json_depth: 20, upstream_timeout_secs: 12, max_inflight_per_worker: 50, idle_spin_us: 250 };
    const result = await loaded(config, { up: { protocol: 'openai', base_url: 'http://127.0.0.1:9000/v1/', headers: { 'x-extra': 'yes' } } });
    const compiled = compileConfig(result, fakeSlots(), 7, true);

    assert.equal(compiled.version, 7);
    assert.equal(compiled.safeMode, true);
    assert.deepEqual(compiled.listen, { host: '::1', port: 8090 });
    assert.deepEqual(compiled.limits, {
      maxBodyBytes: 1000,
      maxJsonDepth: 20,
      maxJsonMembers: 100_000,
      translateBodyCapBytes: 10 * 1024 * 1024,
      maxInflightPerWorker: 50,
    });
    assert.deepEqual(compiled.eventLoop, { idleSpinUs: 250 });
    assert.deepEqual(compiled.egress, { blocked: [], allowed: [], allowAll: false });
    assert.deepEqual(compiled.upstream, { http1Only: false, h2PriorKnowledge: false, requestTimeoutMs: 12000, connectionsPerOrigin: 1024 });
    assert.deepEqual(compiled.auth, { chain: [], upstreamCredentials: 'own', keyVerifyPem: null, awsDerivationKeyHex: null });

    assert.deepEqual(compiled.providers, [
      {
        name: 'up',
        protocol: 'openai',
        origin: 'http://127.0.0.1:9000',
        basePath: '/v1',
        auth: { mode: 'none' },
        headers: { 'x-extra': 'yes' },
        missingKey: false,
        allowMetadataHosts: [],
      },
    ]);
    assert.equal(compiled.lanes.length, 2);
    // Routing's counter slots (dispositions, trips, attempts) are checked apart: their numbers are the assigner's.
    const { directDispositionSlots, directTripSlot, directAttemptSlot, directLatency, attemptDurationSlot, ...lane0 } = compiled.lanes[0]!;
    assert.deepEqual(
      { ...lane0, slot: 0, defaultCellSlot: 0 },
      { name: 'm1', provider: 0, upstreamModel: 'm1', maxConcurrent: 0, maxRequests: 0, maxOutputTokens: 0, slot: 0, defaultCellSlot: 0 },
    );
    assert.equal(
      new Set([...directDispositionSlots, directTripSlot, directAttemptSlot]).size,
      DISPOSITION_NAMES.length + 2,
      'a counter per disposition, one for trips, one for attempts',
    );
    const latency = [...directLatency.firstToken, ...directLatency.perOutputToken, ...directLatency.tokensPerSecond, attemptDurationSlot];
    assert.equal(new Set(latency).size, 19, 'a histogram per protocol for each latency family, one for the attempt duration');
    assert.equal(compiled.lanes[1]!.upstreamModel, 'real-name');
    assert.equal(compiled.lanes[1]!.maxConcurrent, 4);
    assert.equal(compiled.lanes[1]!.maxRequests, 100);

    const [main, backup, plain] = compiled.pools;
    assert.ok(main && backup && plain);
    assert.deepEqual(
      main.members.map((m) => [m.lane, m.weight]),
      [
        [0, 1],
        [1, 3],
      ],
    );
    assert.deepEqual(main.onExhausted, { action: 'least_bad' });
    assert.equal(main.maxHops, 1);
    assert.equal(main.timeoutMs, 2500);
    assert.deepEqual(main.breaker, {
      trip: 'consecutive',
      consecutiveN: 3,
      threshold: 0.5,
      windowSecs: 60,
      minRequests: 5,
      baseCooldownSecs: 15,
      maxCooldownSecs: 120,
    });
    assert.deepEqual(backup.onExhausted, { action: 'fallback_pool', pool: 'main' });
    assert.equal(backup.breaker.trip, 'error_rate');
    assert.equal(backup.breaker.windowSecs, 30);
    assert.deepEqual(plain.onExhausted, { action: 'reject' });

    // Distinct slots per (pool, lane) cell; the same lane keeps its lane slot.
    const cells = compiled.pools.flatMap((pool) => pool.members.map((m) => m.cellSlot));
    assert.equal(new Set(cells).size, cells.length);
    assert.ok(compiled.sabBytes > 0);
  });

  it('keeps slots across a recompile with the same assigner', async () => {
    const result = await loaded(minimalConfig(), { up: { protocol: 'openai', base_url: 'http://127.0.0.1:9000' } });
    const slots = fakeSlots();
    const first = compileConfig(result, slots, 0, false);
    const second = compileConfig(result, slots, 1, false);
    assert.deepEqual(second.lanes, first.lanes);
    assert.deepEqual(second.pools, first.pools);
    assert.equal(first.providers[0]!.basePath, '');
  });

  it('does not spin after I/O unless told to', async () => {
    const result = await loaded(minimalConfig(), { up: { protocol: 'openai', base_url: 'http://127.0.0.1:9000' } });
    assert.deepEqual(compileConfig(result, fakeSlots(), 0, false).eventLoop, { idleSpinUs: 0 }, 'the idle spin is opt-in');
  });

  it('resolves every auth mode', async () => {
    const providers = {
      bearer: { protocol: 'openai', base_url: 'https://api.example.com/v1', auth: { mode: 'bearer', key: { env: 'OPENAI_KEY' } } },
      header: { protocol: 'anthropic', base_url: 'https://api.example.com', auth: { mode: 'header', header: 'x-api-key', key: '${ANTHROPIC_KEY}' } },
      aws: {
        protocol: 'bedrock',
        base_url: 'https://bedrock-runtime.eu-west-3.amazonaws.com',
        auth: { mode: 'sigv4', access_key_id: 'AKIDEXAMPLE', secret_access_key: { env: 'AWS_SECRET' }, session_token: { env: 'AWS_TOKEN' } },
      },
      aws2: {
        protocol: 'bedrock',
        base_url: 'http://127.0.0.1:9000',
        auth: { mode: 'sigv4', region: 'us-west-2', access_key_id: 'a', secret_access_key: 'b' },
      },
      vertex: {
        protocol: 'gemini',
        base_url: 'https://europe-west4-aiplatform.googleapis.com/v1',
        auth: { mode: 'jwt-bearer', scope: 'https://www.googleapis.com/auth/cloud-platform', service_account: { file: 'sa.json' } },
      },
      azure: {
        protocol: 'openai',
        base_url: 'https://example.openai.azure.com/openai',
        auth: {
          mode: 'oauth-client-credentials',
          token_url: 'https://login.example.com/token',
          client_id: 'cid',
          client_secret: { env: 'AZ_SECRET' },
          scope: 'api://x/.default',
        },
      },
    };
    const env = { OPENAI_KEY: 'sk-1', ANTHROPIC_KEY: 'ak-2', AWS_SECRET: 'aws-secret', AWS_TOKEN: 'aws-token', AZ_SECRET: 'az-secret' };
    const sa = JSON.stringify({ client_email: 'svc@example.iam', private_key: SERVICE_ACCOUNT_PEM, token_uri: 'https://oauth2.example.com/token' });
    const config = { ...minimalConfig(), models: { m1: { provider: 'bearer' } } };
    const result = await loaded(config, providers, env, { 'sa.json': sa });
    const byName = Object.fromEntries(compileConfig(result, fakeSlots(), 0, false).providers.map((p) => [p.name, p]));

    assert.deepEqual(byName.bearer!.auth, { mode: 'bearer', token: 'sk-1' });
    assert.deepEqual(byName.header!.auth, { mode: 'header', header: 'x-api-key', value: 'ak-2' });
    assert.deepEqual(byName.aws!.auth, {
      mode: 'sigv4',
      region: 'eu-west-3',
      service: 'bedrock',
      accessKeyId: 'AKIDEXAMPLE',
      secretAccessKey: 'aws-secret',
      sessionToken: 'aws-token',
    });
    assert.deepEqual(byName.aws2!.auth, { mode: 'sigv4', region: 'us-west-2', service: 'bedrock', accessKeyId: 'a', secretAccessKey: 'b' });
    assert.deepEqual(byName.vertex!.auth, {
      mode: 'jwt-bearer',
      tokenUrl: 'https://oauth2.example.com/token',
      clientEmail: 'svc@example.iam',
      privateKeyPem: SERVICE_ACCOUNT_PEM,
      scope: 'https://www.googleapis.com/auth/cloud-platform',
    });
    assert.deepEqual(byName.azure!.auth, {
      mode: 'oauth-client-credentials',
      tokenUrl: 'https://login.example.com/token',
      clientId: 'cid',
      clientSecret: 'az-secret',
      scope: 'api://x/.default',
    });
    for (const provider of Object.values(byName)) assert.equal(provider.missingKey, false, provider.name);
  });

  it('an empty provider key compiles with missingKey', async () => {
    const providers = { up: { protocol: 'openai', base_url: 'https://api.example.com/v1', auth: { mode: 'bearer', key: { env: 'UP_KEY' } } } };
    const result = await loaded(minimalConfig(), providers, {});
    assert.ok(result.warnings.some((line) => line.includes('UP_KEY')));
    const compiled = compileConfig(result, fakeSlots(), 0, false);
    assert.equal(compiled.providers[0]!.missingKey, true);
    assert.deepEqual(compiled.providers[0]!.auth, { mode: 'bearer', token: '' });
  });

  it('deprecated upstream flags apply when the config is silent', async () => {
    const dir = configDir({ 'gateway.yaml': minimalConfig(), 'providers.yaml': { providers: { up: { protocol: 'openai', base_url: 'http://127.0.0.1:1' } } } });
    const result = await loadConfig({
      configPath: join(dir, 'gateway.yaml'),
      safeMode: false,
      purpose: 'boot',
      env: { GATEWAY_UPSTREAM_H2_PRIOR_KNOWLEDGE: 'yes' },
    });
    assert.equal(compileConfig(result, fakeSlots(), 0, false).upstream.h2PriorKnowledge, true);
  });

  it('refuses a config that did not load', async () => {
    const dir = configDir({ 'gateway.yaml': { models: { m: { provider: 'ghost' } } }, 'providers.yaml': { providers: {} } });
    const result = await loadConfig({ configPath: join(dir, 'gateway.yaml'), safeMode: false, purpose: 'boot', env: {} });
    assert.throws(() => compileConfig(result, fakeSlots(), 0, false), /without errors/);
  });
});
