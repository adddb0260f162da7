// Spawning and supervising the data-plane workers. A worker that dies is logged and
// restarted (with a capped backoff) while the others keep serving; a new or restarted worker
// is sent the current config before it starts listening.
import { Worker } from 'node:worker_threads';
import type { Logger } from '../shared/log.js';
import { decodeMessage, encodeMessage, type IdentityRequest, type MainToWorker, type WorkerToMain } from '../shared/messages.js';
import type { CompiledConfig } from '../shared/config/compiled.js';
import type { SharedBuffers } from '../shared/sab/index.js';
import type { WorkerBootData } from '../worker/boot-data.js';
import { floorYoungGeneration } from './worker-heap.js';

const WORKER_ENTRY = new URL('../worker/main.js', import.meta.url);
const RESTART_BACKOFF_MS_MIN = 100;
const RESTART_BACKOFF_MS_MAX = 5_000;

interface Slot {
  id: number;
  /** Highest governance message seq this worker acknowledged. */
  govAcked: number;
  worker: Worker | null;
  ackedVersion: number;
  ready: boolean;
  restarts: number;
  drained: boolean;
}

/** Answers a worker's identity-req (status and JSON body). */
export type IdentityHandler = (request: IdentityRequest) => Promise<{ status: number; body: string; headers?: Record<string, string> }>;

export type UsageHandler = (msg: Extract<WorkerToMain, { t: 'usage' }>) => void;

/** Answers a worker's responses-req (the Responses API state in the store); never rejects. */
export type ResponsesHandler = (op: Extract<WorkerToMain, { t: 'responses-req' }>['op']) => Promise<Extract<MainToWorker, { t: 'responses-res' }>['result']>;

export class WorkerPool {
  private readonly slots: Slot[] = [];
  private config: CompiledConfig | null = null;
  private stopping = false;
  private nextTurn = 0;
  private readonly waiters = new Set<() => void>();
  /** Governance: the whole key/group state a (re)started worker gets before its config. */
  private governanceState: ((seq: number) => MainToWorker) | null = null;
  private govSeq = 0;
  private identityHandler: IdentityHandler | null = null;
  private responsesHandler: ResponsesHandler | null = null;
  /** Sum of `flushed` the workers reported per seq (auth cache flush). */
  private readonly govFlushed = new Map<number, number>();

  /** Request-log batches from the workers (request-log sinks); null: none configured. */
  onRequestLogs: ((records: import('../shared/messages.js').RequestLogRecord[]) => void) | null = null;

  constructor(
    private readonly count: number,
    private readonly shared: SharedBuffers,
    private readonly meteringFlushMs: number,
    private readonly onUsage: UsageHandler,
    private readonly log: Logger,
    /** Called when a worker died, before it is restarted under the same id. */
    private readonly onWorkerDeath: (workerId: number) => void,
    /** Behind the TLS front: the unix socket each worker listens on instead of the data port. */
    private readonly ingressSocketOf: ((workerId: number) => string) | null = null,
  ) {}

  /** Start every worker with `config` and resolve when all are listening. */
  async start(config: CompiledConfig): Promise<void> {
    this.config = config;
    for (let id = 0; id < this.count; id++) {
      const slot: Slot = { id, govAcked: 0, worker: null, ackedVersion: -1, ready: false, restarts: 0, drained: false };
      this.slots.push(slot);
      this.spawn(slot);
    }
    await this.until(() => this.slots.every((s) => s.ready));
  }

  /** Send a new config to every worker; resolves when every live worker acknowledged it. */
  async apply(config: CompiledConfig, timeoutMs = 10_000): Promise<void> {
    this.config = config;
    const bytes = encodeMessage({ t: 'config', version: config.version, config });
    for (const slot of this.slots) slot.worker?.postMessage(bytes);
    await this.until(() => this.slots.every((s) => s.worker === null || s.ackedVersion >= config.version), timeoutMs);
  }

  /** Governance: what a new or restarted worker is sent first (the whole key/group state). */
  setGovernanceState(build: (seq: number) => MainToWorker): void {
    this.governanceState = build;
  }

  /**
   * Send a governance message to every live worker and resolve when each acknowledged it (so
   * the next request on any worker sees the change), with the sum of what they reported
   * flushed. A worker that dies meanwhile is restarted with the whole state, so it is not
   * waited for.
   */
  async governance(build: (seq: number) => MainToWorker, timeoutMs = 10_000): Promise<number> {
    const seq = ++this.govSeq;
    const bytes = encodeMessage(build(seq));
    this.govFlushed.set(seq, 0);
    for (const slot of this.slots) slot.worker?.postMessage(bytes);
    try {
      await this.until(() => this.slots.every((s) => s.worker === null || s.govAcked >= seq), timeoutMs);
      return this.govFlushed.get(seq) ?? 0;
    } finally {
      this.govFlushed.delete(seq);
    }
  }

  /** Drain every worker (stop accepting, finish in-flight, flush metering) up to the deadline. */
  async drain(deadlineMs: number): Promise<void> {
    this.stopping = true;
    const bytes = encodeMessage({ t: 'drain', deadlineMs });
    for (const slot of this.slots) slot.worker?.postMessage(bytes);
    // Each worker exits by itself once drained (closing its uWS sockets first).
    await this.until(() => this.slots.every((s) => s.worker === null), Math.max(0, deadlineMs - Date.now()) + 2_000).catch(() => {
      this.log.warn('drain deadline passed with workers still running');
    });
  }

  /**
   * End one worker as a crash would (operator recycle, SIGUSR2); the supervisor restarts it.
   * The worker is asked to exit rather than terminate()d: uWS sockets must be closed on the
   * thread that owns them before it ends.
   */
  /**
   * Send `msg` to one live worker, taking turns (health probes run on one worker at a time).
   * False when no worker is live.
   */
  sendToOne(msg: MainToWorker): boolean {
    for (let i = 0; i < this.slots.length; i++) {
      const slot = this.slots[(this.nextTurn + i) % this.slots.length]!;
      if (slot.worker === null || !slot.ready) continue;
      this.nextTurn = (slot.id + 1) % this.slots.length;
      slot.worker.postMessage(encodeMessage(msg));
      return true;
    }
    return false;
  }

  recycleOne(): void {
    const slot = this.slots.find((s) => s.worker !== null && s.ready);
    if (slot === undefined) return;
    this.log.warn({ worker: slot.id }, 'recycling a worker on operator request');
    slot.worker!.postMessage(encodeMessage({ t: 'recycle' }));
  }

  /** Ids of the workers serving now (listening, not exited): only they can have metered anything. */
  liveIds(): number[] {
    const ids: number[] = [];
    for (const s of this.slots) if (s.worker !== null && s.ready) ids.push(s.id);
    return ids;
  }

  liveCount(): number {
    return this.slots.filter((s) => s.worker !== null && s.ready).length;
  }

  private spawn(slot: Slot): void {
    const data: WorkerBootData = { workerId: slot.id, shared: this.shared, meteringFlushMs: this.meteringFlushMs };
    if (this.ingressSocketOf !== null) data.ingressSocket = this.ingressSocketOf(slot.id);
    floorYoungGeneration();
    const worker = new Worker(WORKER_ENTRY, { workerData: data });
    slot.worker = worker;
    slot.ready = false;
    slot.ackedVersion = -1;
    slot.drained = false;
    worker.on('message', (bytes: Uint8Array) => this.onMessage(slot, decodeMessage<WorkerToMain>(bytes)));
    worker.on('error', (err) => this.log.error({ worker: slot.id, err: err.message }, 'worker failed'));
    worker.on('exit', (code) => this.onExit(slot, worker, code));
    // Keys and groups first, so the worker can admit from its first request.
    if (this.governanceState !== null) worker.postMessage(encodeMessage(this.governanceState(this.govSeq)));
    worker.postMessage(encodeMessage({ t: 'config', version: this.config!.version, config: this.config! }));
  }

  setIdentityHandler(handler: IdentityHandler): void {
    this.identityHandler = handler;
  }

  private answerIdentity(slot: Slot, msg: Extract<WorkerToMain, { t: 'identity-req' }>): void {
    const worker = slot.worker;
    const handler = this.identityHandler;
    const reply = (status: number, body: string, headers?: Record<string, string>): void =>
      worker?.postMessage(encodeMessage({ t: 'identity-res', id: msg.id, status, body, headers }));
    if (handler === null) {
      reply(503, JSON.stringify({ error: { message: 'identity is not ready', type: 'server_error', param: null, code: null } }));
      return;
    }
    handler(msg.request).then(
      (answer) => reply(answer.status, answer.body, answer.headers),
      (err: Error) => {
        this.log.error({ err: err.message }, 'identity request failed');
        reply(500, JSON.stringify({ error: { message: 'the identity request failed', type: 'server_error', param: null, code: null } }));
      },
    );
  }

  setResponsesHandler(handler: ResponsesHandler): void {
    this.responsesHandler = handler;
  }

  private answerResponses(slot: Slot, msg: Extract<WorkerToMain, { t: 'responses-req' }>): void {
    const worker = slot.worker;
    const handler = this.responsesHandler;
    if (handler === null) {
      worker?.postMessage(
        encodeMessage({ t: 'responses-res', id: msg.id, result: { ok: false, error: 'unavailable', message: 'the responses state is not ready' } }),
      );
      return;
    }
    handler(msg.op).then(
      (result) => worker?.postMessage(encodeMessage({ t: 'responses-res', id: msg.id, result })),
      (err: Error) => {
        this.log.error({ err: err.message }, 'responses state request failed');
        worker?.postMessage(
          encodeMessage({ t: 'responses-res', id: msg.id, result: { ok: false, error: 'internal', message: 'the responses state operation failed' } }),
        );
      },
    );
  }

  private onMessage(slot: Slot, msg: WorkerToMain): void {
    switch (msg.t) {
      case 'identity-req':
        this.answerIdentity(slot, msg);
        return;
      case 'responses-req':
        this.answerResponses(slot, msg);
        return;
      case 'ready':
        slot.ready = true;
        if (slot.restarts > 0) this.log.info({ worker: slot.id, restarts: slot.restarts }, 'worker restarted and listening');
        break;
      case 'config-ack':
        slot.ackedVersion = Math.max(slot.ackedVersion, msg.version);
        break;
      case 'usage':
        this.onUsage(msg);
        break;
      case 'drained':
        slot.drained = true;
        break;
      case 'request-logs':
        this.onRequestLogs?.(msg.records);
        break;
      case 'gov-ack': {
        slot.govAcked = Math.max(slot.govAcked, msg.seq);
        const sum = this.govFlushed.get(msg.seq);
        if (sum !== undefined) this.govFlushed.set(msg.seq, sum + msg.flushed);
        break;
      }
    }
    this.notify();
  }

  private onExit(slot: Slot, worker: Worker, code: number): void {
    if (slot.worker !== worker) return;
    slot.worker = null;
    slot.ready = false;
    this.notify();
    if (this.stopping) return;
    this.onWorkerDeath(slot.id);
    slot.restarts++;
    const backoffMs = Math.min(RESTART_BACKOFF_MS_MAX, RESTART_BACKOFF_MS_MIN * 2 ** Math.min(slot.restarts - 1, 6));
    this.log.error({ worker: slot.id, code, restartInMs: backoffMs }, 'worker exited; restarting it');
    setTimeout(() => {
      if (!this.stopping) this.spawn(slot);
    }, backoffMs).unref();
  }

  private notify(): void {
    for (const w of [...this.waiters]) w();
  }

  private until(done: () => boolean, timeoutMs = 30_000): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = (): void => {
        if (!done()) return;
        this.waiters.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error('workers did not answer in time'));
      }, timeoutMs);
      this.waiters.add(check);
    });
  }
}
