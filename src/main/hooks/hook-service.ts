// The main thread's view of the external hooks: live reads for the admin plane (a connect
// probe, `status` with the drift verdict, `describe`'s settings schema) over the main thread's
// own connection to each hook, and the `configure` of webhook hooks (socket hooks get theirs
// on connect). It follows the compiled config (no hook is attached in safe
// mode); the workers hold their own connections for gates and taps.
import { connect } from 'node:net';
import type { CompiledHook } from '../../shared/config/compiled.js';
import { SocketTransport } from '../../shared/hooks/socket-transport.js';
import type { HookTransport } from '../../shared/hooks/transport.js';
import { WebhookTransport } from '../../shared/hooks/webhook-transport.js';
import type { HookReply } from '../../shared/hooks/wire.js';
import { boundedMetrics, type HookMetric } from './hook-metrics.js';

/** Reads must answer promptly even when the hook does not. */
const READ_TIMEOUT_MS = 1_000;
const PROBE_TIMEOUT_MS = 500;
/** A webhook that did not acknowledge its `configure` is sent it again this often. */
const WEBHOOK_CONFIGURE_RETRY_MS = 30_000;

export interface HookHealth {
  reachable: boolean | null;
  detail: string | null;
}

export interface HookStatus {
  desired: { settings: Record<string, unknown>; settings_version: number };
  reported: { settings: Record<string, unknown> | null; settings_version: number | null } | null;
  drift: boolean | null;
  metrics: HookMetric[];
  as_of: number;
  source: 'live';
  note: string | null;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

/** Keys sorted at every level, so that key order never reads as drift. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = canonical((value as Record<string, unknown>)[key]);
  return out;
}

/** What a webhook's `configure` was sent for: its URL and settings version. */
function configureMark(hook: CompiledHook): string {
  return `${hook.target}\n${hook.settingsVersion}`;
}

export class HookService {
  private readonly connections = new Map<string, { hook: CompiledHook; transport: HookTransport }>();
  /**
   * Webhook hooks by name: the configure last sent (mark) and its answer. A socket hook gets
   * `configure` first on every connection (the greeting); a webhook has no connection, so the
   * main thread sends it at boot and after every config change that gives the hook a new URL
   * or settings version, and again on a timer until it acknowledges.
   */
  private readonly webhookConfigures = new Map<string, { mark: string; acknowledged: Promise<boolean> }>();
  private retryTimer: NodeJS.Timeout | null = null;

  constructor(
    /** The hooks of the live compiled config. */
    private readonly hooks: () => readonly CompiledHook[],
    readonly safeMode: boolean,
  ) {}

  /** A short-timeout connect probe for a socket; null for a webhook (not probed). Never fires the hook. */
  async health(transportKind: 'socket' | 'webhook' | 'none', target: string | null): Promise<HookHealth> {
    if (transportKind === 'webhook') return { reachable: null, detail: 'webhook transport: not probed (a probe would have to fire the hook)' };
    if (transportKind === 'none' || target === null) return { reachable: null, detail: 'no transport is configured' };
    return new Promise<HookHealth>((resolve) => {
      const socket = connect(target);
      const done = (health: HookHealth) => {
        clearTimeout(timer);
        socket.destroy();
        resolve(health);
      };
      const timer = setTimeout(() => done({ reachable: false, detail: `no connection within ${PROBE_TIMEOUT_MS} ms` }), PROBE_TIMEOUT_MS);
      socket.once('connect', () => done({ reachable: true, detail: null }));
      socket.once('error', (err: NodeJS.ErrnoException) => done({ reachable: false, detail: `connect failed: ${err.code ?? 'error'}` }));
    });
  }

  /** `status` of the hook, compared with the registry copy; the fail-open view when it does not answer. */
  async status(name: string, desired: { settings: Record<string, unknown>; settings_version: number }): Promise<HookStatus> {
    const asOf = Math.floor(Date.now() / 1000);
    const failOpen = (note: string): HookStatus => ({ desired, reported: null, drift: null, metrics: [], as_of: asOf, source: 'live', note });
    const transport = this.transportOf(name);
    if (transport === null) return failOpen(this.safeMode ? 'safe mode: external hooks are not attached' : 'the hook is not attached');
    let reply: HookReply;
    try {
      reply = await transport.request({ type: 'status' }, READ_TIMEOUT_MS);
    } catch (err) {
      return failOpen(`the hook did not answer: ${(err as Error).message}`);
    }
    if (reply.type !== 'status') return failOpen('the hook answered something other than status');
    const settings = reply.settings !== null && typeof reply.settings === 'object' && !Array.isArray(reply.settings) ? reply.settings : null;
    const version =
      typeof reply.settings_version === 'number' && Number.isInteger(reply.settings_version) && reply.settings_version >= 0 ? reply.settings_version : null;
    const drift = !sameJson(settings, desired.settings) || version !== desired.settings_version;
    return {
      desired,
      reported: { settings, settings_version: version },
      drift,
      metrics: boundedMetrics(reply.metrics),
      as_of: asOf,
      source: 'live',
      note: null,
    };
  }

  /** The hook's settings JSON Schema from `describe`, or null when it does not answer. */
  async schema(name: string): Promise<Record<string, unknown> | null> {
    const transport = this.transportOf(name);
    if (transport === null) return null;
    try {
      const reply = await transport.request({ type: 'describe' }, READ_TIMEOUT_MS);
      if (reply.type !== 'describe' || reply.schema === null || typeof reply.schema !== 'object' || Array.isArray(reply.schema)) return null;
      return reply.schema;
    } catch {
      return null;
    }
  }

  /**
   * Send `configure` with the desired settings and wait (bounded) for the answer: PATCH
   * settings does this; the workers configure their own connections when the config arrives.
   * False when the hook did not acknowledge (it gets the settings again on its next connect).
   */
  async configure(name: string): Promise<boolean> {
    const hook = this.compiledHook(name);
    if (hook === null) return false;
    // The same configure already on its way to a webhook (configureWebhooks sent it): its answer.
    const pending = this.webhookConfigures.get(name);
    if (hook.transport === 'webhook' && pending?.mark === configureMark(hook)) return pending.acknowledged;
    return this.sendConfigure(hook);
  }

  /**
   * Sends `configure` to every webhook hook whose URL or settings version it has not been sent
   * for (boot, and after each config change); those that do not acknowledge are retried on a
   * timer. Answers are not waited for: a slow webhook delays nothing.
   */
  configureWebhooks(): void {
    const live = new Set<string>();
    for (const hook of this.hooks()) {
      if (hook.transport !== 'webhook') continue;
      live.add(hook.name);
      const mark = configureMark(hook);
      if (this.webhookConfigures.get(hook.name)?.mark === mark) continue;
      const acknowledged = this.sendConfigure(hook);
      this.webhookConfigures.set(hook.name, { mark, acknowledged });
      void acknowledged.then((ok) => {
        if (!ok) this.retryLater();
      });
    }
    for (const name of this.webhookConfigures.keys()) if (!live.has(name)) this.webhookConfigures.delete(name);
  }

  private retryLater(): void {
    if (this.retryTimer !== null) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      // Forget the unacknowledged ones, so configureWebhooks sends them again.
      const checks = [...this.webhookConfigures].map(async ([name, entry]) => {
        if (!(await entry.acknowledged) && this.webhookConfigures.get(name) === entry) this.webhookConfigures.delete(name);
      });
      void Promise.all(checks).then(() => this.configureWebhooks());
    }, WEBHOOK_CONFIGURE_RETRY_MS);
    this.retryTimer.unref();
  }

  private async sendConfigure(hook: CompiledHook): Promise<boolean> {
    const transport = this.transportOf(hook.name);
    if (transport === null) return false;
    try {
      const reply = await transport.request({ type: 'configure', settings: hook.settings, settings_version: hook.settingsVersion }, READ_TIMEOUT_MS);
      return reply.type === 'configure' && reply.ok === true;
    } catch {
      return false;
    }
  }

  /** The compiled hook of this name (null in safe mode or when unknown). */
  compiledHook(name: string): CompiledHook | null {
    return this.hooks().find((h) => h.name === name) ?? null;
  }

  close(): void {
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    for (const c of this.connections.values()) c.transport.close();
    this.connections.clear();
  }

  private transportOf(name: string): HookTransport | null {
    const hook = this.compiledHook(name);
    if (hook === null) return null;
    const existing = this.connections.get(name);
    if (existing !== undefined && existing.hook.target === hook.target && existing.hook.transport === hook.transport && existing.hook.secret === hook.secret) {
      existing.hook = hook;
      return existing.transport;
    }
    existing?.transport.close();
    const entry = { hook, transport: null as unknown as HookTransport };
    entry.transport =
      hook.transport === 'socket'
        ? new SocketTransport(name, hook.target, {
            greeting: () => ({ settings: entry.hook.settings, settings_version: entry.hook.settingsVersion }),
            reconnect: false,
          })
        : new WebhookTransport(name, hook.target, hook.secret);
    this.connections.set(name, entry);
    return entry.transport;
  }
}
