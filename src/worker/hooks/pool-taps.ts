// The taps that observe one pool's requests, split by stage once per config so a request only
// walks the taps of the stage at hand. A tap is fire-and-forget: the event is encoded and handed
// to the hook's transport, which sheds it (and counts the drop) when the hook's bounded queue
// is full; nothing here waits, so a slow tap never delays a request. When no tap of a stage has
// room the event is not even built: a hook that fell behind costs a request a few checks.
import type { CompiledHook } from '../../shared/config/compiled.js';
import type { HookTransport } from '../../shared/hooks/transport.js';
import type { TapEvent, TapStage } from '../../shared/hooks/wire.js';

export class PoolTaps {
  private readonly byStage: Record<TapStage, number[]> = { request: [], route: [], attempt: [], completion: [] };

  constructor(
    taps: readonly number[],
    private readonly hooks: readonly CompiledHook[],
    private readonly transports: readonly HookTransport[],
  ) {
    for (const index of taps) {
      const at = hooks[index]!.at;
      if (at !== null) this.byStage[at].push(index);
    }
  }

  /** True when some tap of `at` would take an event now; callers build the event only then.
   * When every tap of `at` is full or away, each counts this event as shed. */
  wants(at: TapStage): boolean {
    const taps = this.byStage[at];
    for (const index of taps) if (this.transports[index]!.acceptsTaps()) return true;
    for (const index of taps) this.transports[index]!.shedTap();
    return false;
  }

  /** `event` without grants; `body` and `keyId` are added per tap as its grants allow. */
  emit(at: TapStage, event: TapEvent, body: unknown, keyId: string): void {
    for (const index of this.byStage[at]) {
      const hook = this.hooks[index]!;
      const seen: TapEvent = hook.prompt === 'no' && hook.user === 'no' ? event : { ...event };
      if (hook.prompt !== 'no') seen.prompt = body;
      if (hook.user === 'ro') seen.key_id = keyId;
      this.transports[index]!.send({ type: 'tap', at, event: seen });
    }
  }
}
