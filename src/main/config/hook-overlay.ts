// The hook registry's part of the overlay: what POST /hooks, DELETE /hooks/{name} and PATCH
// /hooks/{name}/settings changed, recorded as changes over the file rather than as a copy of
// the whole live config. A copy made an applied config (answered "not written to disk") survive
// a restart, shadowed every later edit of the file, and wrote a literal webhook secret to disk;
// changes over the file keep the file in effect for everything the API did not touch, and the
// overlay never holds more than the hook definitions the API was sent (secret references only).
import { isPlainObject } from '../../shared/config/schema-walk.js';
import type { OverlayHooks } from '../../shared/config/schema/overlay.js';

type Doc = Record<string, unknown>;

/** The overlay's `hooks` as read from the file (any shape), ready to change. */
export function hookOverlayOf(raw: unknown): OverlayHooks {
  const from = isPlainObject(raw) ? raw : {};
  return {
    registered: isPlainObject(from.registered) ? { ...(from.registered as OverlayHooks['registered']) } : {},
    deleted: Array.isArray(from.deleted) ? from.deleted.filter((n): n is string => typeof n === 'string') : [],
    settings: isPlainObject(from.settings) ? { ...(from.settings as OverlayHooks['settings']) } : {},
  };
}

/** POST /hooks: the definition as sent (its secret, if any, a reference). */
export function recordRegistered(h: OverlayHooks, name: string, definition: Record<string, unknown>): void {
  h.registered[name] = definition as OverlayHooks['registered'][string];
  h.deleted = h.deleted.filter((n) => n !== name);
  delete h.settings[name];
}

/** DELETE /hooks/{name}: a registered hook is forgotten; a file hook is recorded as deleted. */
export function recordDeleted(h: OverlayHooks, name: string): void {
  const wasRegistered = Object.hasOwn(h.registered, name);
  delete h.registered[name];
  delete h.settings[name];
  if (!wasRegistered && !h.deleted.includes(name)) h.deleted.push(name);
}

/** PATCH /hooks/{name}/settings. */
export function recordSettings(h: OverlayHooks, name: string, settings: Record<string, unknown>): void {
  const registered = Object.hasOwn(h.registered, name) ? h.registered[name] : undefined;
  if (registered !== undefined) registered.settings = settings;
  else h.settings[name] = settings;
}

/** Takes `name` out of global_hooks and every pool's hooks list (what a delete does live too). */
export function dropHookReferences(document: Doc, name: string): void {
  if (Array.isArray(document.global_hooks)) document.global_hooks = document.global_hooks.filter((h) => h !== name);
  const pools = document.pools;
  if (!isPlainObject(pools)) return;
  for (const [poolName, pool] of Object.entries(pools)) {
    if (isPlainObject(pool) && Array.isArray(pool.hooks)) pools[poolName] = { ...pool, hooks: pool.hooks.filter((h) => h !== name) };
  }
}

export interface HookOverlayResult {
  /** The document with the changes applied (a new object; the input is not changed). */
  document: Doc;
  /** File settings the overlay overrides, one line each (reload reports them). */
  overridden: string[];
  /** What the overlay changed, for the load notes. */
  summary: string | null;
}

/** The file's `hooks:` (and the references to deleted hooks) with the API's changes over it. */
export function applyHookOverlay(document: Doc, h: OverlayHooks, overlayPath: string): HookOverlayResult {
  const fileHooks = isPlainObject(document.hooks) ? document.hooks : {};
  const hooks: Doc = { ...fileHooks };
  const out: Doc = { ...document, hooks, ...(Array.isArray(document.global_hooks) ? { global_hooks: [...document.global_hooks] } : {}) };
  if (isPlainObject(document.pools)) out.pools = { ...document.pools };
  const overridden: string[] = [];
  for (const name of h.deleted) {
    if (Object.hasOwn(fileHooks, name))
      overridden.push(`hooks.${name}: deleted through the admin API (the overlay ${overlayPath}); the file's definition is not in effect`);
    delete hooks[name];
    dropHookReferences(out, name);
  }
  for (const [name, definition] of Object.entries(h.registered)) {
    if (Object.hasOwn(fileHooks, name))
      overridden.push(`hooks.${name}: registered through the admin API (the overlay ${overlayPath}); the file's definition of the same name is not in effect`);
    hooks[name] = definition;
  }
  for (const [name, settings] of Object.entries(h.settings)) {
    const hook = Object.hasOwn(hooks, name) ? hooks[name] : undefined;
    if (!isPlainObject(hook)) continue;
    hooks[name] = { ...hook, settings };
    overridden.push(`hooks.${name}.settings: set through the admin API (the overlay ${overlayPath}); the file's settings are not in effect`);
  }
  const parts = [
    Object.keys(h.registered).length > 0 ? `registered ${Object.keys(h.registered).join(', ')}` : '',
    h.deleted.length > 0 ? `deleted ${h.deleted.join(', ')}` : '',
    Object.keys(h.settings).length > 0 ? `settings of ${Object.keys(h.settings).join(', ')}` : '',
  ].filter((p) => p !== '');
  return { document: out, overridden, summary: parts.length === 0 ? null : `hooks from the overlay ${overlayPath} (admin API): ${parts.join('; ')}` };
}
