// Compiles `hooks:`, `global_hooks:` and each pool's `hooks:` into the worker snapshot: hook
// definitions with their defaults (the same defaults as the HookView, hook-views.ts) and, per
// pool, the gates and taps that apply to it. Safe mode attaches no external hook at all.
import type { CompiledHook, CompiledOnError, SlotAssigner } from '../../shared/config/compiled.js';
import { formatPath } from '../../shared/config/config-path.js';
import type { DeploymentConfig } from '../../shared/config/schema/deployment.js';
import { RESERVED_HOOK_NAMES } from '../../shared/config/schema/hooks.js';
import { hookViewsOf } from './hook-views.js';
import type { ResolvedSecrets } from './load-result.js';
import { HOOK_TAPS_SHED_TOTAL, seriesKey } from '../../shared/metrics/catalog.js';

/**
 * settings_version per hook name: 1 for the settings a hook is first compiled with, +1 each
 * time a later config gives it other settings. Process-local (it resets with the process, as
 * config_version does); the only state compiling keeps.
 */
const settingsVersions = new Map<string, { json: string; version: number }>();

export function settingsVersionOf(name: string, settings: Record<string, unknown>): number {
  const json = JSON.stringify(settings);
  const seen = settingsVersions.get(name);
  if (seen === undefined) {
    settingsVersions.set(name, { json, version: 1 });
    return 1;
  }
  if (seen.json !== json) {
    seen.json = json;
    seen.version++;
  }
  return seen.version;
}

export interface CompiledHooks {
  hooks: CompiledHook[];
  /** The gate and tap indexes of a pool, by pool name. */
  forPool(pool: string, names: readonly string[] | undefined): { gates: number[]; taps: number[] };
}

export function compileHooks(config: DeploymentConfig, secrets: ResolvedSecrets, safeMode: boolean, slots: SlotAssigner): CompiledHooks {
  if (safeMode) return { hooks: [], forPool: () => ({ gates: [], taps: [] }) };
  const views = hookViewsOf(config);
  const names = Object.keys(views);
  const hooks = names.map((name): CompiledHook => {
    const v = views[name]!;
    const onError: CompiledOnError = RESERVED_HOOK_NAMES.includes(v.on_error)
      ? { terminal: v.on_error as 'weighted' | 'reject' | 'first' | 'nothing' }
      : { hook: names.indexOf(v.on_error) };
    return {
      name,
      kind: v.kind === 'gate' ? 'gate' : 'tap',
      transport: v.transport.kind === 'webhook' ? 'webhook' : 'socket',
      target: v.transport.target ?? '',
      secret: secrets.get(formatPath(['hooks', name, 'secret'])) ?? '',
      prompt: v.prompt as CompiledHook['prompt'],
      user: v.user as CompiledHook['user'],
      priority: v.priority,
      at: v.at as CompiledHook['at'],
      onError,
      timeoutMs: v.timeout_ms,
      settings: v.settings,
      settingsVersion: settingsVersionOf(name, v.settings),
      global: v.global,
      tapsShedSlot: v.kind === 'gate' ? -1 : slots.metricSeries(seriesKey(HOOK_TAPS_SHED_TOTAL, [name]), { kind: 'counter' }),
    };
  });
  const byPriority = (a: number, b: number) => hooks[a]!.priority - hooks[b]!.priority || a - b;
  return {
    hooks,
    forPool(_pool, own) {
      const picked = new Set<number>();
      for (let i = 0; i < hooks.length; i++) if (hooks[i]!.global) picked.add(i);
      for (const name of own ?? []) {
        const i = names.indexOf(name);
        if (i !== -1) picked.add(i);
      }
      const all = [...picked].sort(byPriority);
      return { gates: all.filter((i) => hooks[i]!.kind === 'gate'), taps: all.filter((i) => hooks[i]!.kind === 'tap') };
    },
  };
}
