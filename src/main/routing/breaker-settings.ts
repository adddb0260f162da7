// After a config apply or reload: the breaker cells of every pool whose breaker settings
// changed follow the new settings (BreakerPolicy.followSettings): an Open cell the new trip
// condition no longer holds closes at once, instead of keeping its trip and doubled cooldown
// until a restart. Runs on main once the workers run the new config; the cells are shared, so
// every worker sees the change at its next pick.
import type { CompiledBreaker, CompiledConfig } from '../../shared/config/compiled.js';
import type { Logger } from '../../shared/log.js';
import { BreakerPolicy } from '../../shared/routing/breaker-policy.js';
import type { SharedState } from '../../shared/sab/index.js';

function sameBreaker(a: CompiledBreaker, b: CompiledBreaker): boolean {
  return (
    a.trip === b.trip &&
    a.consecutiveN === b.consecutiveN &&
    a.threshold === b.threshold &&
    a.windowSecs === b.windowSecs &&
    a.minRequests === b.minRequests &&
    a.baseCooldownSecs === b.baseCooldownSecs &&
    a.maxCooldownSecs === b.maxCooldownSecs
  );
}

export class BreakerSettingsFollower {
  private readonly policy: BreakerPolicy;

  constructor(
    shared: SharedState,
    private readonly log: Logger,
    nowMs: () => number = Date.now,
  ) {
    this.policy = new BreakerPolicy(shared.breakers, nowMs, Math.random);
  }

  /** The (pool, lane) names of the cells that closed. */
  follow(before: CompiledConfig, after: CompiledConfig): string[] {
    const closed: string[] = [];
    const previous = new Map(before.pools.map((p) => [p.name, p.breaker]));
    for (const pool of after.pools) {
      const was = previous.get(pool.name);
      if (was === undefined || sameBreaker(was, pool.breaker)) continue;
      for (const member of pool.members) {
        if (this.policy.followSettings(member.cellSlot, pool.breaker)) closed.push(`${pool.name}/${after.lanes[member.lane]!.name}`);
      }
    }
    if (closed.length > 0) this.log.info({ cells: closed }, 'breaker cells closed: the new breaker settings no longer trip them');
    return closed;
  }
}
