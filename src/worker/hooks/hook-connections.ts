// The worker's connections to its hooks, kept across config applies: a hook whose transport,
// target and secret did not change keeps its connection (and its multiplexed requests); a hook
// that left the config is closed. When a hook's settings change the worker tells it with
// `configure` on its own connection, and every (re)connect starts with `configure` too.
import type { CompiledHook } from '../../shared/config/compiled.js';
import { SocketTransport } from '../../shared/hooks/socket-transport.js';
import type { HookTransport } from '../../shared/hooks/transport.js';
import { WebhookTransport } from '../../shared/hooks/webhook-transport.js';
import type { SharedState } from '../../shared/sab/index.js';

interface Connection {
  transport: HookTransport;
  hook: CompiledHook;
}

export class HookConnections {
  private readonly byKey = new Map<string, Connection>();

  /** The transport of each of `hooks`, by index; a tap's sheds are counted in `shared` (null: not counted). */
  sync(hooks: readonly CompiledHook[], shared: SharedState | null = null): HookTransport[] {
    const keep = new Set<string>();
    const out = hooks.map((hook) => {
      const key = `${hook.name}\u0000${hook.transport}\u0000${hook.target}\u0000${hook.secret}`;
      keep.add(key);
      const existing = this.byKey.get(key);
      if (existing !== undefined) {
        const changed = existing.hook.settingsVersion !== hook.settingsVersion;
        existing.hook = hook;
        if (changed) existing.transport.send({ type: 'configure', settings: hook.settings, settings_version: hook.settingsVersion });
        countSheds(existing.transport, hook, shared);
        return existing.transport;
      }
      const connection: Connection = { hook, transport: null! };
      if (hook.transport === 'socket') {
        const socket = new SocketTransport(hook.name, hook.target, {
          greeting: () => ({ settings: connection.hook.settings, settings_version: connection.hook.settingsVersion }),
          reconnect: true,
        });
        socket.warm();
        connection.transport = socket;
      } else {
        connection.transport = new WebhookTransport(hook.name, hook.target, hook.secret);
      }
      this.byKey.set(key, connection);
      countSheds(connection.transport, hook, shared);
      return connection.transport;
    });
    for (const [key, connection] of this.byKey) {
      if (!keep.has(key)) {
        connection.transport.close();
        this.byKey.delete(key);
      }
    }
    return out;
  }

  closeAll(): void {
    for (const c of this.byKey.values()) c.transport.close();
    this.byKey.clear();
  }
}

/** Point a transport's shed count at its hook's series of this config (a gate has none). */
function countSheds(transport: HookTransport, hook: CompiledHook, shared: SharedState | null): void {
  const slot = hook.tapsShedSlot;
  transport.onShed = shared === null || slot < 0 ? null : () => shared.metrics.counterAdd(slot);
}
