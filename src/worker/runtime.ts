// The live form of a compiled config inside one worker: codecs, upstream pools and
// credentials resolved per provider, name indexes, and SWRR cursors. Built once per apply and
// swapped in between requests; a request keeps the runtime it started with.
import type { CompiledConfig, CompiledLane, CompiledPool, CompiledProvider } from '../shared/config/compiled.js';
import type { Codec } from '../shared/protocols/codec.js';
import type { CodecFastPath, FastPathMemo } from '../shared/protocols/fast-path/codec-fast-path.js';
import { fastPathOf } from '../shared/protocols/fast-path/registry.js';
import type { UsageShape } from '../shared/protocols/framing/usage-shape.js';
import { CODECS } from '../shared/protocols/index.js';
import { SwrrCursor } from '../shared/routing/swrr.js';
import type { Logger } from '../shared/log.js';
import type { Pool as UndiciPool } from 'undici';
import type { UpstreamOrigins } from './upstream/origins.js';
import { createUpstreamAuth, type UpstreamAuth } from './upstream/auth/upstream-auth.js';
import type { ServedBy } from './pipeline/admission-lease.js';
import { laneId } from '../shared/governance/lane-id.js';
import type { RouteGate } from './hooks/route-gate.js';
import type { HookTransport } from '../shared/hooks/transport.js';
import type { SharedState } from '../shared/sab/index.js';
import { PoolGate } from './hooks/pool-gate.js';
import { PoolTaps } from './hooks/pool-taps.js';

export class ProviderRuntime {
  readonly codec: Codec;
  /** The codec's fast path, looked up once (fast-path/registry.ts). */
  readonly fastPath: CodecFastPath | undefined;
  constructor(
    readonly compiled: CompiledProvider,
    readonly dispatcher: UndiciPool,
    readonly auth: UpstreamAuth,
  ) {
    this.codec = CODECS[compiled.protocol];
    this.fastPath = fastPathOf(this.codec);
  }
}

export class LaneRuntime implements FastPathMemo {
  /** Made once, handed to AdmissionLease.settle (no object per request). */
  readonly servedBy: ServedBy;
  /** The shape of this lane's same-protocol non-stream usage, learnt from its first answer (relay/passthrough-usage.ts). */
  usageBody: UsageShape | null = null;
  /** The shape of its stream usage event (FastPathMemo). */
  usageEvent: FastPathMemo['usageEvent'] = null;
  /** The shapes of the stream events its decoder parses (FastPathMemo). */
  eventShapes: FastPathMemo['eventShapes'] = null;
  /** The layouts of its Responses deltas (FastPathMemo). */
  responsesDeltas: FastPathMemo['responsesDeltas'] = null;
  /** The layout of its Chat Completions text deltas (FastPathMemo). */
  chatDeltas: FastPathMemo['chatDeltas'] = null;
  /** The layout of its Gemini text chunks (FastPathMemo). */
  geminiText: FastPathMemo['geminiText'] = null;

  constructor(
    readonly index: number,
    readonly compiled: CompiledLane,
    readonly provider: ProviderRuntime,
  ) {
    this.servedBy = Object.freeze({
      lane: compiled.name,
      laneId: laneId(compiled.name),
      provider: provider.compiled.name,
      protocol: provider.compiled.protocol,
    });
  }
}

export class PoolRuntime {
  /**
   * The pool's gate hooks (src/worker/hooks/pool-gate.ts): null means no gate, so the hot path
   * checks one pointer. See src/worker/hooks/route-gate.ts for what a gate may do to the candidates.
   */
  gate: RouteGate | null = null;
  /** The taps observing this pool's requests; null when none (one pointer check per stage). */
  taps: PoolTaps | null = null;

  constructor(
    readonly compiled: CompiledPool,
    readonly members: LaneRuntime[],
    /** Worker-local; carried over from the previous runtime when the pool's members did not change. */
    readonly cursor: SwrrCursor,
  ) {}
}

/** Same members, same weights: the pool's SWRR cursor survives the apply. */
function samePool(a: CompiledPool, b: CompiledPool, aLanes: readonly CompiledLane[], bLanes: readonly CompiledLane[]): boolean {
  if (a.members.length !== b.members.length) return false;
  for (let i = 0; i < a.members.length; i++) {
    if (a.members[i]!.weight !== b.members[i]!.weight) return false;
    if (aLanes[a.members[i]!.lane]!.name !== bLanes[b.members[i]!.lane]!.name) return false;
  }
  return true;
}

export class Runtime {
  readonly providers: ProviderRuntime[];
  readonly lanes: LaneRuntime[];
  readonly pools = new Map<string, PoolRuntime>();
  readonly lanesByName = new Map<string, LaneRuntime>();
  readonly providersByName = new Map<string, ProviderRuntime>();
  /** The global taps: they observe requests that reach no pool (direct routes, early refusals). */
  readonly unpooledTaps: PoolTaps | null;
  /** The global gates, per direct lane (made on first use; null: no global gate). */
  private readonly directGates: (RouteGate | null)[];
  private readonly hookTransports: readonly HookTransport[];

  constructor(
    readonly config: CompiledConfig,
    origins: UpstreamOrigins,
    log: Logger,
    /** The runtime this one replaces: SWRR cursors of unchanged pools carry over. */
    previous: Runtime | null = null,
    /** The worker's transport of each of config.hooks, by index (hook-connections.ts). */
    hookTransports: readonly HookTransport[] = [],
    /** Where the gates count gateway_route_policy_*; null: not counted (unit tests). */
    shared: SharedState | null = null,
  ) {
    origins.configure(config.upstream);
    this.providers = config.providers.map((p) => new ProviderRuntime(p, origins.get(p.origin, p.allowMetadataHosts), createUpstreamAuth(p, log)));
    for (const p of this.providers) this.providersByName.set(p.compiled.name, p);
    this.lanes = config.lanes.map((l, i) => new LaneRuntime(i, l, this.providers[l.provider]!));
    for (const lane of this.lanes) this.lanesByName.set(lane.compiled.name, lane);
    for (const pool of config.pools) {
      const before = previous?.pools.get(pool.name);
      const keep = before !== undefined && samePool(before.compiled, pool, previous!.config.lanes, config.lanes);
      const cursor = keep ? before.cursor : new SwrrCursor(pool.members.map((m) => m.weight));
      const runtime = new PoolRuntime(
        pool,
        pool.members.map((m) => this.lanes[m.lane]!),
        cursor,
      );
      if (pool.gates.length > 0)
        runtime.gate = new PoolGate(
          runtime.members.map((m) => m.compiled.name),
          pool.gates,
          config.hooks,
          hookTransports,
          shared === null ? null : { shared, pool },
        );
      if (pool.taps.length > 0) runtime.taps = new PoolTaps(pool.taps, config.hooks, hookTransports);
      this.pools.set(pool.name, runtime);
    }
    const unpooled = config.unpooledHooks;
    this.unpooledTaps = unpooled.taps.length > 0 ? new PoolTaps(unpooled.taps, config.hooks, hookTransports) : null;
    this.directGates = new Array<RouteGate | null>(this.lanes.length).fill(null);
    this.hookTransports = hookTransports;
  }

  /** The global gates as a direct route to `lane` asks them (its one member), or null when there are none. */
  directGate(lane: LaneRuntime): RouteGate | null {
    const gates = this.config.unpooledHooks.gates;
    if (gates.length === 0) return null;
    return (this.directGates[lane.index] ??= new PoolGate([lane.compiled.name], gates, this.config.hooks, this.hookTransports, null));
  }

  /** The lane a direct route names: the provider's lane whose name or upstream model is `model`. */
  directLane(provider: string, model: string): LaneRuntime | undefined {
    for (const lane of this.lanes) {
      if (lane.provider.compiled.name !== provider) continue;
      if (lane.compiled.name === model || lane.compiled.upstreamModel === model) return lane;
    }
    return undefined;
  }

  /** Stop background work (token refresh timers) of a runtime that was swapped out. */
  retire(): void {
    for (const p of this.providers) p.auth.close();
  }
}
