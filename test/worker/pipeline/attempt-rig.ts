// The request path in process, for unit tests of its steps and of the attempt loop: a real
// compiled config and Runtime, real shared memory, router, metering and attempt timers, with
// the two things the outside world controls replaced -- the upstream (a dispatcher the test
// answers call by call) and the clocks (advanced by the test).
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import type { Dispatcher } from 'undici';
import { compileConfig } from '../../../src/main/config/compile.js';
import { loadConfig } from '../../../src/main/config/load.js';
import type { CompiledConfig } from '../../../src/shared/config/compiled.js';
import { createLogger } from '../../../src/shared/log.js';
import { DISPOSITION_NAMES } from '../../../src/shared/routing/attempt-outcome.js';
import { SharedState, SlotRegistry } from '../../../src/shared/sab/index.js';
import { Authenticator } from '../../../src/worker/auth/authenticate.js';
import { KeyVerifier } from '../../../src/worker/auth/key-verifier.js';
import { SigV4Verifier } from '../../../src/worker/auth/sigv4-verifier.js';
import { Admission } from '../../../src/worker/governance/admit.js';
import { KeyTable } from '../../../src/worker/governance/key-table.js';
import { LaneGauges } from '../../../src/worker/lane-gauges.js';
import { Metering } from '../../../src/worker/metering.js';
import type { AbortListener, ClientResponse, IngressRequest } from '../../../src/worker/pipeline/client.js';
import type { PipelineDeps } from '../../../src/worker/pipeline/context.js';
import type { RequestContext } from '../../../src/worker/pipeline/context.js';
import { startRequest } from '../../../src/worker/pipeline/entry.js';
import { Router } from '../../../src/worker/routing/router.js';
import { Runtime } from '../../../src/worker/runtime.js';
import { ResponseStateClient } from '../../../src/worker/responses/state-client.js';
import { AttemptTimers } from '../../../src/worker/upstream/attempt-timers.js';
import { UpstreamOrigins } from '../../../src/worker/upstream/origins.js';
import { configDir, removeConfigDirs } from '../../main/config/config-dir.js';

/** Both clocks, moved by the test only. */
class FakeClock {
  mono = 1_000_000;
  epoch = 1_800_000_000_000;
  advance(ms: number): void {
    this.mono += ms;
    this.epoch += ms;
  }
}

/** One attempt the fake dispatcher was given, and the calls to answer it with. */
class Sent {
  aborted: Error | null = null;
  constructor(
    readonly opts: Dispatcher.DispatchOptions,
    private readonly handler: Dispatcher.DispatchHandler,
  ) {}

  get body(): string {
    const b = this.opts.body;
    return typeof b === 'string' ? b : Buffer.from(b as Uint8Array).toString('utf8');
  }

  connect(): void {
    this.handler.onConnect!((err) => {
      if (this.aborted !== null) return;
      this.aborted = err ?? new Error('aborted');
      this.handler.onError!(this.aborted);
    });
  }

  head(status: number, headers: Record<string, string> = { 'content-type': 'application/json' }): void {
    const raw: Buffer[] = [];
    for (const [name, value] of Object.entries(headers)) raw.push(Buffer.from(name), Buffer.from(value));
    this.handler.onHeaders!(status, raw, () => undefined, '');
  }

  data(text: string): void {
    this.handler.onData!(Buffer.from(text));
  }

  complete(): void {
    this.handler.onComplete!([]);
  }

  /** A whole answer: connect, head, body, end. */
  answer(status: number, body: string, headers?: Record<string, string>): void {
    this.connect();
    this.head(status, headers);
    this.data(body);
    this.complete();
  }

  fail(code: string): void {
    this.handler.onError!(Object.assign(new Error(code), { code }));
  }
}

/** What the caller was sent. */
class FakeClient implements ClientResponse {
  aborted = false;
  started = false;
  closeOnEnd = false;
  status = 0;
  headers: Record<string, string> = {};
  body = '';
  ended = false;
  private listener: AbortListener | null = null;

  respond(status: number, headers: Record<string, string>, body: string | Uint8Array): void {
    this.started = true;
    this.status = status;
    this.headers = headers;
    this.body = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
    this.ended = true;
  }

  startStream(status: number, headers: Record<string, string>): void {
    this.started = true;
    this.status = status;
    this.headers = headers;
  }

  write(chunk: string | Uint8Array | readonly Uint8Array[]): boolean {
    if (typeof chunk === 'string') this.body += chunk;
    else if (chunk instanceof Uint8Array) this.body += Buffer.from(chunk).toString('utf8');
    else for (const part of chunk) this.body += Buffer.from(part).toString('utf8');
    return true;
  }

  end(last?: string | Uint8Array): void {
    if (last !== undefined) this.write(last);
    this.ended = true;
  }

  onDrain(cb: () => void): void {
    cb();
  }

  onAbort(listener: AbortListener): void {
    this.listener = listener;
  }

  /** The caller goes away. */
  abort(): void {
    this.aborted = true;
    this.listener?.onClientAbort();
  }
}

export interface Rig {
  config: CompiledConfig;
  runtime: Runtime;
  deps: PipelineDeps;
  shared: SharedState;
  clock: FakeClock;
  timers: AttemptTimers;
  sent: Sent[];
  /** A chat request to `model` on /v1/chat/completions, started at once. */
  chat(model: string, opts?: { stream?: boolean; startedMs?: number; extra?: Record<string, unknown> }): { client: FakeClient; ctx: RequestContext };
  /** A disposition counter of a pool member (or of the pool's no-lane row with member -1). */
  disposition(pool: string, member: number, name: string): number;
  close(): void;
}

const PROVIDERS = {
  providers: {
    up: { protocol: 'openai', base_url: 'http://127.0.0.1:9/v1', auth: { mode: 'none' } },
    claude: { protocol: 'anthropic', base_url: 'http://127.0.0.1:9', auth: { mode: 'none' }, headers: { 'anthropic-version': '2023-06-01' } },
  },
};

export async function startRig(
  pools: Record<string, unknown>,
  models: Record<string, unknown> = { m1: { provider: 'up' }, m2: { provider: 'up' } },
): Promise<Rig> {
  const dir = configDir({ 'gateway.yaml': { listen: '127.0.0.1:8080', models, pools }, 'providers.yaml': PROVIDERS });
  const loaded = await loadConfig({ configPath: join(dir, 'gateway.yaml'), safeMode: false, purpose: 'boot', env: {} });
  if (loaded.errors.length > 0) throw new Error(loaded.errors.join('; '));
  const clock = new FakeClock();
  const main = SharedState.create({ holders: 2, timeBaseMs: clock.epoch });
  const slots = new SlotRegistry(main);
  const config = compileConfig(loaded, slots, 0, false);
  main.ensureBytes(config.sabBytes);
  const shared = SharedState.attach(main.buffers(), 1);
  const origins = new UpstreamOrigins();
  const log = createLogger('test');
  const runtime = new Runtime(config, origins, log, null, [], shared);
  const sent: Sent[] = [];
  const fake = {
    dispatch(opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
      sent.push(new Sent(opts, handler));
      return true;
    },
  };
  for (const p of runtime.providers) (p as { dispatcher: unknown }).dispatcher = fake;
  const channel = new MessageChannel();
  const metering = new Metering(0, channel.port1, shared, 60_000);
  metering.useSeries(config.metrics);
  const timers = new AttemptTimers(1_000_000);
  const deps: PipelineDeps = {
    runtime: () => runtime,
    router: new Router(
      shared,
      new LaneGauges(shared),
      log,
      () => clock.epoch,
      () => 0.5,
    ),
    metering,
    auth: new Authenticator(new KeyVerifier(), new KeyTable(), new SigV4Verifier()),
    admission: new Admission(shared, metering),
    shared,
    attemptTimers: timers,
    // Chat never asks the Responses state: its calls would go to a main that is not there.
    responses: new ResponseStateClient(channel.port1, 0),
    clock: { monoMs: () => clock.mono, epochMs: () => clock.epoch },
  };
  return {
    config,
    runtime,
    deps,
    shared,
    clock,
    timers,
    sent,
    chat(model, opts = {}) {
      const client = new FakeClient();
      const body = Buffer.from(JSON.stringify({ model, stream: opts.stream === true, messages: [{ role: 'user', content: 'hi' }], ...opts.extra }));
      const req: IngressRequest = {
        routeIndex: 0,
        params: [],
        query: '',
        contentType: 'application/json',
        authorization: '',
        xApiKey: '',
        xGoogApiKey: '',
        callerHeaders: {},
        affinity: '',
        traceparent: '',
        body,
        bodyRead: true,
        startedMs: opts.startedMs ?? clock.mono,
      };
      const ctx = startRequest(deps, req, client) as RequestContext;
      return { client, ctx };
    },
    disposition(pool, member, name) {
      const p = config.pools.find((x) => x.name === pool)!;
      const slots = member < 0 ? p.noLaneDispositionSlots : p.members[member]!.dispositionSlots;
      return shared.metrics.counterValue(slots[(DISPOSITION_NAMES as readonly string[]).indexOf(name)]!);
    },
    close() {
      timers.close();
      metering.stop();
      channel.port1.close();
      runtime.retire();
      void origins.close();
      removeConfigDirs();
    },
  };
}
