// The taps that observe one pool's requests, split by stage once per config so a request only
// walks the taps of the stage at hand. A tap is fire-and-forget: the event is encoded and handed
// to the hook's transport, which sheds it (and counts the drop) when the hook's bounded queue
// is full; nothing here waits, so a slow tap never delays a request.
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

  /** True when some tap observes `at` (callers skip building the event otherwise). */
  observes(at: TapStage): boolean {
    return this.byStage[at].length !== 0;
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
