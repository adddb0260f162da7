// Compiles a loaded config into the snapshot every worker runs: plain data, indexes instead of
// names, secrets resolved, durations in milliseconds, stable shared-memory slots.
import type {
  CompiledAuth,
  CompiledBreaker,
  CompiledConfig,
  CompiledLane,
  CompiledPool,
  CompiledProvider,
  OnExhausted,
  SlotAssigner,
} from '../../shared/config/compiled.js';
import { parseListenAddress } from '../../shared/config/address.js';
import { formatPath, isUnderPath } from '../../shared/config/config-path.js';
import type { Provider, ProviderAuth } from '../../shared/config/schema/providers.js';
import type { Static } from '@sinclair/typebox';
import type { Pool } from '../../shared/config/schema/pools.js';
import { regionFromHost } from './aws-region.js';
import { attemptDurationSlot, attemptSlot, compileMetrics, gatePolicies, latencySlots, poolMetricSlots } from './compile-metrics.js';
import { compileHooks, type CompiledHooks } from './compile-hooks.js';
import { compileTracing } from './compile-tracing.js';
import { compileHealth, dispositionSlots, failoverSlots, tripSlot } from './compile-routing.js';
import { DIRECT_POOL_LABEL } from '../../shared/routing/series.js';
import type { LoadResult, ResolvedSecrets } from './load-result.js';
import { parseServiceAccount } from './service-account.js';
import { compileKeyVerification } from '../governance/signing.js';
import { compileIdentity } from '../identity/compile.js';

/** Throws when `result` is not ok: compiling an invalid config is a programming error. */
export function compileConfig(result: LoadResult, slots: SlotAssigner, version: number, safeMode: boolean): CompiledConfig {
  const { config, catalog } = result;
  if (!result.ok || config === undefined || catalog === undefined) {
    throw new Error('compileConfig needs a config that loaded without errors');
  }
  const providerNames = Object.keys(catalog.providers);
  const providers = Object.entries(catalog.providers).map(([name, provider]) => compileProvider(name, provider, result.secrets));
  const laneNames = Object.keys(config.models);
  const lanes = Object.entries(config.models).map(([name, lane]): CompiledLane => {
    return {
      name,
      provider: providerNames.indexOf(lane.provider),
      upstreamModel: lane.upstream_model ?? name,
      maxConcurrent: lane.max_concurrent,
      maxRequests: lane.max_requests,
      maxOutputTokens: lane.max_output_tokens ?? 0,
      slot: slots.laneSlot(name),
      defaultCellSlot: slots.defaultCellSlot(name),
      directDispositionSlots: dispositionSlots(slots, DIRECT_POOL_LABEL, name),
      directTripSlot: tripSlot(slots, DIRECT_POOL_LABEL, name),
      directAttemptSlot: attemptSlot(slots, DIRECT_POOL_LABEL, name),
      directLatency: latencySlots(slots, DIRECT_POOL_LABEL, name),
      attemptDurationSlot: attemptDurationSlot(slots, name),
    };
  });
  const hooks = compileHooks(config, result.secrets, safeMode, slots);
  const pools = Object.entries(config.pools).map(([name, pool]) => compilePool(name, pool, laneNames, slots, hooks));
  const { advanced } = config;
  const overrides = result.processOverrides;
  return {
    version,
    safeMode,
    listen: parseListenAddress(config.listen),
    limits: {
      maxBodyBytes: advanced.max_body_bytes,
      maxJsonDepth: advanced.max_json_depth,
      maxJsonMembers: advanced.max_json_members,
      translateBodyCapBytes: advanced.translate_body_cap_bytes,
      maxInflightPerWorker: advanced.max_inflight_per_worker ?? 0,
    },
    // The idle spin is opt-in (docs/decisions/300-idle-spin-opt-in.md).
    eventLoop: { idleSpinUs: advanced.idle_spin_us ?? 0 },
    egress: {
      blocked: [...config.security.blocked_metadata_hosts],
      allowed: [...config.security.allow_metadata_hosts],
      allowAll: config.security.allow_all_metadata,
    },
    upstream: {
      http1Only: overrides.upstreamHttp1Only ?? advanced.upstream_http1_only,
      h2PriorKnowledge: overrides.upstreamH2PriorKnowledge ?? advanced.upstream_h2_prior_knowledge,
      requestTimeoutMs: Math.round(advanced.upstream_timeout_secs * 1000),
      connectionsPerOrigin: advanced.upstream_connections,
    },
    auth: {
      chain: [...config.auth.chain],
      upstreamCredentials: config.auth.upstream_credentials,
      ...compileKeyVerification(result.secrets.get('auth.signing_key')),
    },
    identity: compileIdentity(config),
    governance: { enabled: config.governance?.enabled ?? true, keyCacheEntries: config.governance?.key_cache_entries ?? 10_000 },
    providers,
    lanes,
    pools,
    hooks: hooks.hooks,
    // Requests with no pool (direct routes, and refusals before a target is known): the global hooks.
    unpooledHooks: hooks.forPool(DIRECT_POOL_LABEL, []),
    unroutedDispositionSlots: dispositionSlots(slots, DIRECT_POOL_LABEL, ''),
    logs: {
      enabled: config.logs.webhook !== undefined || config.logs.file !== undefined,
      includePrompt: config.logs.webhook?.include_prompt === true || config.logs.file?.include_prompt === true,
    },
    health: compileHealth(config),
    metrics: compileMetrics(config, slots),
    tracing: compileTracing(config, result.secrets),
    // Asked last, after every slot of this config is assigned.
    sabBytes: slots.bytesNeeded(),
  };
}

function compilePool(name: string, pool: Static<typeof Pool>, laneNames: string[], slots: SlotAssigner, hooks: CompiledHooks): CompiledPool {
  const breaker: CompiledBreaker = {
    trip: pool.breaker.trip,
    consecutiveN: pool.breaker.consecutive_n,
    threshold: pool.breaker.threshold,
    // The shared error window counts whole seconds (validation caps it at 128).
    windowSecs: Math.min(128, Math.ceil(pool.breaker.window_secs)),
    minRequests: pool.breaker.min_requests,
    baseCooldownSecs: pool.breaker.base_cooldown_secs,
    maxCooldownSecs: pool.breaker.max_cooldown_secs,
  };
  const hooked = hooks.forPool(name, pool.hooks);
  return {
    name,
    members: pool.members.map((member) => ({
      lane: laneNames.indexOf(member.model),
      weight: member.weight,
      cellSlot: slots.cellSlot(name, member.model),
      dispositionSlots: dispositionSlots(slots, name, member.model),
      tripSlot: tripSlot(slots, name, member.model),
      attemptSlot: attemptSlot(slots, name, member.model),
      latency: latencySlots(slots, name, member.model),
    })),
    onExhausted: compileOnExhausted(pool.on_exhausted),
    maxHops: pool.failover.max_hops,
    timeoutMs: Math.round(pool.failover.timeout_secs * 1000),
    attemptTimeoutMs: pool.failover.attempt_timeout_secs === undefined ? 0 : Math.max(1, Math.round(pool.failover.attempt_timeout_secs * 1000)),
    breaker,
    noLaneDispositionSlots: dispositionSlots(slots, name, ''),
    failoverSlots: failoverSlots(slots, name),
    metrics: poolMetricSlots(slots, name, true, gatePolicies(hooks.hooks, hooked.gates)),
    ...hooked,
  };
}

function compileOnExhausted(value: Static<typeof Pool>['on_exhausted']): OnExhausted {
  if (typeof value === 'object') return { action: 'fallback_pool', pool: value.fallback_pool };
  return value === 'least_bad' ? { action: 'least_bad' } : { action: 'reject' };
}

function compileProvider(name: string, provider: Provider, secrets: ResolvedSecrets): CompiledProvider {
  const url = new URL(provider.base_url);
  const authPath = formatPath(['providers', name, 'auth']);
  let missingKey = false;
  for (const [path, value] of secrets) if (value === '' && isUnderPath(path, authPath)) missingKey = true;
  return {
    name,
    protocol: provider.protocol,
    origin: url.origin,
    basePath: url.pathname.replace(/\/+$/, ''),
    auth: compileAuth(provider.auth, url.hostname, (field) => secrets.get(`${authPath}.${field}`) ?? ''),
    headers: { ...provider.headers },
    missingKey,
    allowMetadataHosts: [...(provider.allow_metadata_hosts ?? [])],
  };
}

function compileAuth(auth: ProviderAuth, host: string, secret: (field: string) => string): CompiledAuth {
  switch (auth.mode) {
    case 'none':
      return { mode: 'none' };
    case 'bearer':
      return { mode: 'bearer', token: secret('key') };
    case 'header':
      return { mode: 'header', header: auth.header, value: secret('key') };
    case 'sigv4': {
      const sessionToken = auth.session_token === undefined ? undefined : secret('session_token');
      return {
        mode: 'sigv4',
        region: auth.region ?? regionFromHost(host) ?? '',
        service: auth.service,
        accessKeyId: secret('access_key_id'),
        secretAccessKey: secret('secret_access_key'),
        ...(sessionToken === undefined || sessionToken === '' ? {} : { sessionToken }),
      };
    }
    case 'jwt-bearer': {
      const account = auth.service_account === undefined ? undefined : parseServiceAccount(secret('service_account'));
      const fromAccount = account === undefined || 'error' in account ? undefined : account;
      return {
        mode: 'jwt-bearer',
        tokenUrl: auth.token_url ?? fromAccount?.tokenUri ?? '',
        clientEmail: fromAccount?.clientEmail ?? auth.client_email ?? '',
        privateKeyPem: fromAccount?.privateKeyPem ?? secret('private_key'),
        scope: auth.scope,
        ...(auth.audience === undefined ? {} : { audience: auth.audience }),
      };
    }
    case 'oauth-client-credentials':
      return {
        mode: 'oauth-client-credentials',
        tokenUrl: auth.token_url,
        clientId: secret('client_id'),
        clientSecret: secret('client_secret'),
        ...(auth.scope === undefined ? {} : { scope: auth.scope }),
      };
  }
}
