// The pair every data-plane integration test needs: one mock provider (all six protocols) and
// one real gateway process routing `pool-<protocol>` to the mock's `<protocol>` lane.
import { after, before } from 'node:test';
import { PROTOCOL_NAMES } from '../../../src/shared/model/types.js';
import { startMockProvider, type MockOptions, type MockServer } from '../../../src/mock/server.js';
import type { MockStats } from '../../../src/mock/stats.js';
import { mockConfig, startGateway, writeConfig, type GatewayFiles, type RunningGateway } from '../gateway.js';

export interface Stack {
  mock: MockServer;
  gateway: RunningGateway;
  /** The config dir and file the gateway runs on (restart with startGateway(files)). */
  files: GatewayFiles;
  /** Stops the gateway, then the mock (unless the caller gave it); safe to call twice. */
  close(): Promise<void>;
}

/** A deployment config and its provider catalog, as writeConfig takes them. */
export interface StackConfig {
  config: Record<string, unknown>;
  providers: Record<string, unknown>;
}

export interface StackOptions {
  workers?: number;
  /** Top-level deployment config keys merged over mockConfig's (or over build's). */
  over?: Record<string, unknown>;
  mock?: MockOptions;
  /** A mock the caller started (and closes): the stack uses it instead of starting its own. */
  mockServer?: MockServer;
  /**
   * The config and catalog instead of mockConfig's, made once the mock's url is known: auth
   * open, the memory store and a locked config unless it sets them.
   */
  build?: (mockUrl: string) => StackConfig;
  /** Providers, models and pools added to the config's own (the same name replaces). */
  extraProviders?: Record<string, unknown>;
  extraModels?: Record<string, unknown>;
  extraPools?: Record<string, unknown>;
  /** Last edits of the config and catalog, before they are written. */
  edit?: (made: StackConfig) => void;
  /** Environment and command-line arguments of the gateway process. */
  env?: NodeJS.ProcessEnv;
  args?: string[];
  /** The config has a `tls` block: the gateway's url is https://. */
  https?: boolean;
}

/** The open, memory-backed, locked base a `build` config goes over. */
const BUILD_BASE = { auth: { chain: [], admin_auth: [], upstream_credentials: 'own' }, store: { module: 'memory' }, config: { locked: true } };

/** The config and catalog startStack writes for a mock at `mockUrl`. */
export function stackConfig(mockUrl: string, opts: StackOptions = {}): StackConfig {
  let made: StackConfig;
  if (opts.build === undefined) made = mockConfig(mockUrl, opts.over);
  else {
    const built = opts.build(mockUrl);
    made = { config: { ...BUILD_BASE, ...built.config, ...opts.over }, providers: built.providers };
  }
  Object.assign(made.providers, opts.extraProviders);
  if (opts.extraModels !== undefined) made.config.models = { ...(made.config.models as object | undefined), ...opts.extraModels };
  if (opts.extraPools !== undefined) made.config.pools = { ...(made.config.pools as object | undefined), ...opts.extraPools };
  opts.edit?.(made);
  return made;
}

export async function startStack(opts: StackOptions = {}): Promise<Stack> {
  const ownMock = opts.mockServer === undefined;
  const mock = opts.mockServer ?? (await startMockProvider({ port: 0, ...opts.mock }));
  let gateway: RunningGateway;
  let files: GatewayFiles;
  try {
    const { config, providers } = stackConfig(mock.url, opts);
    files = writeConfig(config, providers);
    gateway = await startGateway(files, {
      workers: opts.workers ?? 1,
      ...(opts.env === undefined ? {} : { env: opts.env }),
      ...(opts.args === undefined ? {} : { args: opts.args }),
      ...(opts.https === undefined ? {} : { https: opts.https }),
    });
  } catch (err) {
    if (ownMock) await mock?.close();
    throw err;
  }
  let closed = false;
  return {
    mock,
    gateway,
    files,
    async close() {
      if (closed) return;
      closed = true;
      await gateway.stop();
      if (ownMock) await mock?.close();
    },
  };
}

/**
 * Something the hooks of the enclosing describe (or of the file, when made at its top) start
 * and close: `start`, then `ready` (what the tests need made from it), in one before hook;
 * close() in an after hook, then `closed` (a check of what it left, say). The subclasses read it
 * through in the tests. (Hooks at a file's top do not wait for one another: what needs the
 * started thing goes in `ready`, not in a before hook of its own.)
 */
abstract class SuiteResource<T extends { close(): Promise<void> }> {
  private started: T | undefined;

  constructor(start: () => Promise<T>, closed?: (started: T) => void | Promise<void>, ready?: (started: T) => void | Promise<void>) {
    before(async () => {
      this.started = await start();
      await ready?.(this.started);
    });
    after(async () => {
      const started = this.started;
      if (started === undefined) return;
      await started.close();
      await closed?.(started);
    });
  }

  protected get running(): T {
    if (this.started === undefined) throw new Error(`${this.constructor.name}: read before its before hook started it`);
    return this.started;
  }

  close(): Promise<void> {
    return this.running.close();
  }
}

/** startStack(opts) for the enclosing describe (or the file), closed after its tests. */
export class SuiteStack extends SuiteResource<Stack> implements Stack {
  constructor(opts: StackOptions = {}, closed?: (stack: Stack) => void | Promise<void>, ready?: (stack: Stack) => void | Promise<void>) {
    super(() => startStack(opts), closed, ready);
  }

  get mock(): MockServer {
    return this.running.mock;
  }

  get gateway(): RunningGateway {
    return this.running.gateway;
  }

  get files(): GatewayFiles {
    return this.running.files;
  }
}

/** A mock provider for the enclosing describe (or the file), on a free port, closed after its tests. */
class SuiteMock extends SuiteResource<MockServer> implements MockServer {
  constructor(opts: Omit<MockOptions, 'port'>) {
    super(() => startMockProvider({ port: 0, ...opts }));
  }

  get port(): number {
    return this.running.port;
  }

  get url(): string {
    return this.running.url;
  }

  stats(): MockStats {
    return this.running.stats();
  }

  reset(): void {
    this.running.reset();
  }
}

/** The mock provider of the enclosing describe, or of the file when called at its top (SuiteMock). */
export function suiteMock(opts: Omit<MockOptions, 'port'> = {}): MockServer {
  return new SuiteMock(opts);
}

/** The stack of the enclosing describe, or of the file when called at its top (SuiteStack); `ready` runs once it is up. */
export function suiteStack(opts: StackOptions = {}, ready?: (stack: Stack) => void | Promise<void>): Stack {
  return new SuiteStack(opts, undefined, ready);
}

/** Pools `pool-<protocol>` over `lane-<protocol>` (mockConfig's six), each with `fields` added (a breaker, say). */
export function poolPerProtocol(fields: Record<string, unknown>): Record<string, unknown> {
  const pools: Record<string, unknown> = {};
  for (const p of PROTOCOL_NAMES) pools[`pool-${p}`] = { members: [{ model: `lane-${p}`, weight: 1 }], ...fields };
  return pools;
}

/** Polls `check` every 25 ms until it returns true or `timeoutMs` passes; returns the last result. */
export async function eventually(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (check()) return true;
    if (Date.now() >= until) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
