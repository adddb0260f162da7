// Health probing, scheduled by the main thread: every `health.interval_secs` (floored at 1 s;
// the first tick is skipped, so a fresh process is not probed at once) it picks the lanes to
// probe and hands them to one worker, which sends each a one-token request through the
// lane's own codec and upstream auth (src/worker/routing/health-probe.ts) and writes the
// outcome into the shared cells. Why a worker: the upstream clients, credentials and codecs
// live there already; main keeps only the schedule. Modes: `none` probes nothing, `dead`
// only lanes with a cell that is not Closed, `active` every lane. A lane whose provider key
// is missing is skipped.
import type { CompiledConfig } from '../../shared/config/compiled.js';
import type { Logger } from '../../shared/log.js';
import type { SharedState } from '../../shared/sab/index.js';
import { laneHasOpenCell } from '../../shared/routing/lane-view.js';
import type { WorkerPool } from '../workers.js';

/** How often an idle schedule (`mode: none`) looks again for a mode change. */
const IDLE_RECHECK_MS = 1_000;

/** The lanes a tick probes under `config`; empty for `none`. */
function lanesToProbe(config: CompiledConfig, shared: SharedState): number[] {
  const mode = config.health.mode;
  if (mode === 'none' || config.auth.upstreamCredentials === 'passthrough') return [];
  const lanes: number[] = [];
  config.lanes.forEach((lane, i) => {
    if (config.providers[lane.provider]!.missingKey) return;
    if (mode === 'dead' && !laneHasOpenCell(shared, config, i)) return;
    lanes.push(i);
  });
  return lanes;
}

export class HealthScheduler {
  private timer: NodeJS.Timeout | null = null;
  private ticks = 0;

  constructor(
    private readonly config: () => CompiledConfig,
    private readonly shared: SharedState,
    private readonly workers: WorkerPool,
    private readonly log: Logger,
  ) {}

  start(): void {
    this.schedule();
  }

  stop(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /** One timer at a time, re-armed after each tick with the interval of the config then in force. */
  private schedule(): void {
    const health = this.config().health;
    this.timer = setTimeout(() => this.tick(), health.mode === 'none' ? IDLE_RECHECK_MS : health.intervalMs);
    this.timer.unref();
  }

  private tick(): void {
    this.timer = null;
    const config = this.config();
    if (config.health.mode !== 'none' && this.ticks++ > 0) {
      const lanes = lanesToProbe(config, this.shared);
      if (lanes.length > 0 && !this.workers.sendToOne({ t: 'probe', version: config.version, lanes, timeoutMs: config.health.timeoutMs })) {
        this.log.warn({ lanes: lanes.length }, 'health probe skipped: no live worker');
      }
    }
    this.schedule();
  }
}
