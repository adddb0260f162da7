// What a scenario file under bench/scenarios/ exports: a plain description object. The runner
// owns everything else (starting targets, warming up, measuring, reporting), so a new scenario
// is one small file and nothing more.

/** The processes a scenario can be run against. `mock` is the provider hit directly: the ceiling. */
export type TargetKind = 'mock' | 'baseline' | 'nginx' | 'gateway';

export const TARGET_KINDS: readonly TargetKind[] = ['mock', 'baseline', 'nginx', 'gateway'];

export interface ScenarioRequest {
  method: 'POST' | 'GET' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path on the target, e.g. `/v1/chat/completions`. */
  path: string;
  /** Sent verbatim; its byte length is stated in the report. */
  body?: string;
  headers?: Record<string, string>;
}

/**
 * How the rows are read. `throughput`: req/s and CPU per request against the baseline and
 * nginx. `added-latency`: one connection, sequential requests; each target's p50/p99 minus the
 * mock's (the latency the hop adds at low load).
 */
export type ScenarioKind = 'throughput' | 'added-latency';

/** A cheap check of one response before load starts, so a misrouted target fails loudly. */
interface ScenarioExpectation {
  /** Default: any 2xx. */
  status?: number;
  /** The body must contain this text (e.g. the stream's final event). */
  bodyIncludes?: string;
}

/** The generated gateway config files as plain objects, for a scenario to change. */
export interface GatewayConfigFiles {
  /** gateway.yaml */
  gateway: Record<string, unknown>;
  /** providers.yaml */
  providers: Record<string, unknown>;
  /** The gateway's cores (null: unpinned): a sidecar a scenario starts (a hook) belongs there,
   * as an operator would run it beside the gateway. */
  proxyCores?: readonly number[] | null;
}

/** What `gatewayNote` is told about the row it annotates, beyond the gateway's URL. */
export interface NoteRow {
  pid: number;
  /** The row's measured seconds (--duration or the scenario's). */
  durationSecs: number;
  /** Gateway worker threads (--workers). */
  workers: number;
  /** The cores wrk runs on (null when unpinned): a load the note drives belongs there too. */
  loadCores: readonly number[] | null;
}

/** What a `beside` load is told about the gateway row it runs beside. */
export interface BesideTarget {
  url: string;
  adminUrl: string;
  /** The gateway process, for samplers that read /proc (the soak). */
  pid: number;
  /** The measured run's length: a sampler sizes its interval from it. */
  durationSecs: number;
  /** The cores wrk runs on (null when unpinned): a load the scenario drives belongs there too. */
  loadCores: readonly number[] | null;
}

export interface Scenario {
  /** Unique, used by `--scenario`. Lower-case words joined by dashes. */
  name: string;
  /** One line for the report heading. */
  title: string;
  kind: ScenarioKind;
  request: ScenarioRequest;
  /**
   * Targets to run against, in this order. `mock` first gives the ceiling; the ratios need
   * `baseline` and `nginx` in the same scenario.
   */
  targets: readonly TargetKind[];
  /** wrk connections (`--connections` overrides). */
  connections: number;
  /** Measured seconds (`--duration` overrides). */
  durationSecs: number;
  expect?: ScenarioExpectation;
  /**
   * Changes to the bench's gateway config (more lanes, keys, limits...). A scenario with this
   * gets a gateway process of its own, started before its gateway row and stopped after it;
   * the others share one.
   */
  gatewayConfig?: (files: GatewayConfigFiles) => void;
  /**
   * True when the scenario sets up the gateway's auth itself (a governed, OIDC or store
   * scenario, or one that keeps the door open on purpose): `--governed` leaves it as it is.
   */
  governed?: boolean;
  /** Seconds that gateway may take to answer /healthz after spawn (default 30): a config that
   * loads a million keys from the store takes longer to boot than the rest. */
  gatewayReadySecs?: number;
  /**
   * Asked after each gateway row is measured, with the gateway's base URL: a one-line note for
   * the report (e.g. a share read from GET /stats), or null for none.
   */
  gatewayNote?: (gatewayUrl: string, row: NoteRow) => Promise<string | null>;
  /**
   * A second load run beside the gateway row's measured run (not its warmup), from the bench
   * process: started just before wrk, `stop` aborted when wrk ends; it resolves to a one-line
   * note for the report (its own figures). The row's req/s is then the data plane under it.
   */
  beside?: (gateway: BesideTarget, stop: AbortSignal) => Promise<string>;
  /**
   * Left out of the suite (no --scenario): long or machine-filling runs (soak, overload) run
   * only when named.
   */
  namedOnly?: boolean;
  /**
   * Its row is a verdict over one long run (soak, overload), not a figure whose noise repeats
   * would show: one row per target whatever `--repeats` says.
   */
  runOnce?: boolean;
  /**
   * The scenario this one varies (e.g. the same request without the gate): when both run in one
   * invocation, the report gives this gateway row's req/s ratio and added p50/p99 against it.
   */
  reference?: string;
  /** Sort key in the suite (ties by name); leave gaps so others can slot in. */
  order?: number;
  /** A name `--scenario` also takes, selecting every scenario of the group (e.g. `cross-pairs`). */
  group?: string;
  /**
   * Scenarios with the same key share one gateway made from their (identical) `gatewayConfig`,
   * started at the first of their rows and kept to the end, instead of one gateway per row.
   */
  sharedGateway?: string;
  /**
   * The scenario whose baseline row is this one's reference when this one runs no baseline
   * (several scenarios send the same request to the baseline, e.g. one ingress to every lane).
   */
  baselineFrom?: string;
  /**
   * Scenarios with the same key send the same request to the baseline, and each is compared with
   * all the baseline rows any of them ran, as one line (their medians): several scenarios of the
   * group run the baseline, at different times of the run, so the figure every cell divides by
   * is not one moment's.
   */
  baselineGroup?: string;
  /** Its place in its group's matrix table (e.g. ingress and lane protocol): one cell per scenario. */
  cell?: { row: string; column: string };
}
