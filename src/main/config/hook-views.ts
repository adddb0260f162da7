// The HookView of each hook in a deployment config, with the defaults of a definition that
// leaves a field out. Pure: used by GET /config, the config version views and their diff
// (which runs in piscina). A webhook `secret` is never part of a view.
import { isPlainObject } from '../../shared/config/schema-walk.js';

export interface HookView {
  name: string;
  kind: string;
  transport: { kind: 'socket' | 'webhook' | 'none'; target: string | null };
  prompt: string;
  user: string;
  priority: number;
  at: string | null;
  on_error: string;
  timeout_ms: number;
  settings: Record<string, unknown>;
  global: boolean;
}

const DEFAULT_TIMEOUT_MS = 1_000;

function text(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

export function hookViewsOf(config: unknown): Record<string, HookView> {
  // No prototype: a hook name is only ever an own key (`valueOf` finds nothing inherited).
  const out: Record<string, HookView> = Object.create(null) as Record<string, HookView>;
  if (!isPlainObject(config) || !isPlainObject(config.hooks)) return out;
  const globals = Array.isArray(config.global_hooks) ? config.global_hooks : [];
  for (const [name, def] of Object.entries(config.hooks)) {
    const d = isPlainObject(def) ? def : {};
    const kind = text(d.kind, 'tap');
    const transport: HookView['transport'] =
      typeof d.socket === 'string'
        ? { kind: 'socket', target: d.socket }
        : typeof d.webhook === 'string'
          ? { kind: 'webhook', target: d.webhook }
          : { kind: 'none', target: null };
    out[name] = {
      name,
      kind,
      transport,
      prompt: text(d.prompt, 'no'),
      user: text(d.user, 'no'),
      priority: typeof d.priority === 'number' ? d.priority : 0,
      at: kind === 'gate' ? null : text(d.at, 'completion'),
      on_error: text(d.on_error, 'weighted'),
      timeout_ms: typeof d.timeout_ms === 'number' ? d.timeout_ms : DEFAULT_TIMEOUT_MS,
      settings: isPlainObject(d.settings) ? d.settings : {},
      global: d.global === true || globals.includes(name),
    };
  }
  return out;
}

export function globalHooksOf(config: unknown): string[] {
  return isPlainObject(config) && Array.isArray(config.global_hooks) ? config.global_hooks.filter((h): h is string => typeof h === 'string') : [];
}
