// The live form of a compiled config inside one worker: codecs, upstream pools and
// credentials resolved per provider, name indexes, and SWRR cursors. Built once per apply and
// swapped in between requests; a request keeps the runtime it started with.
import type { CompiledConfig, CompiledLane, CompiledPool, CompiledProvider } from '../shared/config/compiled.js';
import type { Codec } from '../shared/protocols/codec.js';
import { CODECS } from '../shared/protocols/index.js';
import { SwrrCursor } from '../shared/routing/swrr.js';
import type { Logger } from '../shared/log.js';
import type { Pool as UndiciPool } from 'undici';
import type { UpstreamOrigins } from './upstream/origins.js';
import { createUpstreamAuth, type UpstreamAuth } from './upstream/auth/upstream-auth.js';
import type { LaneGauges } from './lane-gauges.js';

export class ProviderRuntime {
  readonly codec: Codec;
  constructor(
    readonly compiled: CompiledProvider,
    readonly dispatcher: UndiciPool,
    readonly auth: UpstreamAuth,
  ) {
    this.codec = CODECS[compiled.protocol];
  }
}

export class LaneRuntime {
  constructor(
    readonly index: number,
    readonly compiled: CompiledLane,
    readonly provider: ProviderRuntime,
  ) {}
}

export class PoolRuntime {
  readonly cursor: SwrrCursor;
  /** Made once so a pick allocates no closure. */
  readonly usable: (member: number) => boolean;

  constructor(
    readonly compiled: CompiledPool,
    readonly members: LaneRuntime[],
    gauges: LaneGauges,
  ) {
    this.cursor = new SwrrCursor(compiled.members.map((m) => m.weight));
    this.usable = (member: number) => gauges.hasFreePermit(this.members[member]!.compiled);
  }
}

export class Runtime {
  readonly providers: ProviderRuntime[];
  readonly lanes: LaneRuntime[];
  readonly pools = new Map<string, PoolRuntime>();
  readonly lanesByName = new Map<string, LaneRuntime>();
  readonly providersByName = new Map<string, ProviderRuntime>();

  constructor(
    readonly config: CompiledConfig,
    origins: UpstreamOrigins,
    gauges: LaneGauges,
    log: Logger,
  ) {
    origins.configure(config.upstream);
    this.providers = config.providers.map(
      (p) => new ProviderRuntime(p, origins.get(p.origin), createUpstreamAuth(p, log)),
    );
    for (const p of this.providers) this.providersByName.set(p.compiled.name, p);
    this.lanes = config.lanes.map((l, i) => new LaneRuntime(i, l, this.providers[l.provider]!));
    for (const lane of this.lanes) this.lanesByName.set(lane.compiled.name, lane);
    for (const pool of config.pools) {
      this.pools.set(pool.name, new PoolRuntime(pool, pool.members.map((m) => this.lanes[m.lane]!), gauges));
    }
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
