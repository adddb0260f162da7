// Loads the gateway's configuration: the deployment config (or the overlay of API-applied
// changes that replaces it), the provider catalog, `${VAR}` interpolation, secrets, TLS and the
// boot invariant. Every problem is collected; nothing is thrown for bad input.
//
// Relative paths, wherever they are given (providers_file, overlay file, `file:` secrets, TLS
// files, deprecated variables), resolve against the config file's folder.
import process from 'node:process';
import { dirname, isAbsolute, resolve } from 'node:path';
import { isUnderPath, renderIssue, issue } from '../../shared/config/config-path.js';
import { isPlainObject } from '../../shared/config/schema-walk.js';
import { deprecatedFlags, deprecatedPaths } from './deprecated-env.js';
import { evaluate } from './evaluate.js';
import { interpolate } from './interpolate.js';
import type { LoadContext, LoadPurpose, LoadResult } from './load-result.js';
import { applyHookOverlay } from './hook-overlay.js';
import { checkOverlayWritable, readOverlay } from './overlay.js';
import { readYamlFile } from './yaml-file.js';

export type { LoadResult } from './load-result.js';
export { resolveWorkerThreads } from './worker-threads.js';
export { bootDiagnostic } from './diagnostic.js';

/**
 * Settings that locate the rest and therefore always come from the config file, even when
 * the overlay (or a proposed config) replaces the deployment config.
 */
const BOOTSTRAP_KEYS = ['providers_file', 'config'] as const;

export interface LoadOptions {
  configPath: string;
  safeMode: boolean;
  purpose: LoadPurpose;
  env?: NodeJS.ProcessEnv;
  /**
   * A deployment config proposed through the admin API (`POST /config/apply`, `/config/validate`),
   * as parsed JSON. It replaces the file's config and the overlay's; the bootstrap settings
   * (`providers_file`, `config`) and the provider catalog still come from the files.
   */
  document?: unknown;
}

export async function loadConfig(opts: LoadOptions): Promise<LoadResult> {
  const configPath = resolve(opts.configPath);
  const ctx = newContext(opts.purpose, opts.safeMode, opts.env ?? process.env, dirname(configPath));
  const at = (path: string) => (isAbsolute(path) ? path : resolve(ctx.configDir, path));
  const partial = { configPath, providersPath: at('providers.yaml'), overlayPath: null as string | null };
  if (opts.safeMode) ctx.warnings.push('safe mode: the overlay of API-applied changes is ignored and external hooks are not started');

  const file = await readYamlFile(configPath);
  ctx.issues.push(...file.issues);
  if (file.value === undefined) return finish(ctx, { ...partial, configSource: 'file', processOverrides: {} });

  // Bootstrap settings first: they say where the provider catalog and the overlay are.
  const bootstrap = interpolateBootstrap(file.value, ctx);
  const fromEnv = deprecatedPaths(file.value, ctx);
  const providersFile = stringAt(bootstrap, 'providers_file') ?? fromEnv.providersFile ?? 'providers.yaml';
  const locked = isPlainObject(bootstrap.config) && bootstrap.config.locked === true;
  const overlayFile = stringAt(bootstrap, 'config', 'overlay', 'file') ?? fromEnv.overlayFile ?? 'gateway-overlay.json';
  partial.providersPath = at(providersFile);
  partial.overlayPath = locked ? null : at(overlayFile);

  let effective: Record<string, unknown> = file.value as Record<string, unknown>;
  let configSource: LoadResult['configSource'] = 'file';
  if (opts.document !== undefined) {
    configSource = 'document';
    if (isPlainObject(opts.document)) effective = opts.document;
    else ctx.issues.push(issue('', 'the proposed config must be a mapping of settings'));
  } else if (partial.overlayPath !== null && !opts.safeMode) {
    const overlay = await readOverlay(partial.overlayPath);
    ctx.issues.push(...overlay.issues);
    if (overlay.overlay?.config !== undefined) {
      if (isPlainObject(overlay.overlay.config)) {
        effective = overlay.overlay.config;
        configSource = 'overlay';
        ctx.notes.push(`the deployment config comes from the overlay ${partial.overlayPath} (API-applied changes); --safe-mode ignores it`);
        ctx.overridden.push(
          `the deployment config file is not in effect: the overlay ${partial.overlayPath} holds a whole \`config\` (written by hand or by an older release) that replaces it; remove that field to use the file`,
        );
      } else {
        ctx.issues.push(issue(partial.overlayPath, '"config" must be a mapping (--safe-mode ignores the overlay)'));
      }
    }
    const adminAuth = overlay.overlay?.admin_auth;
    if (adminAuth !== undefined) {
      const fileChain = isPlainObject(effective.auth) ? effective.auth.admin_auth : undefined;
      if (fileChain !== undefined && JSON.stringify(fileChain) !== JSON.stringify(adminAuth.modules)) {
        ctx.overridden.push(`auth.admin_auth: the overlay's chain (PUT /admin-auth, ${partial.overlayPath}) is in effect, not the file's`);
      }
      effective = { ...effective, auth: { ...(isPlainObject(effective.auth) ? effective.auth : {}), admin_auth: adminAuth.modules } };
      ctx.notes.push(`auth.admin_auth from the overlay ${partial.overlayPath} (PUT /admin-auth) is in effect`);
    }
    const tls = overlay.overlay?.settings.tls;
    if (tls !== undefined) {
      const fileTls = isPlainObject(effective.tls) ? effective.tls : {};
      for (const key of Object.keys(tls)) {
        if (fileTls[key] !== undefined && JSON.stringify(fileTls[key]) !== JSON.stringify((tls as Record<string, unknown>)[key])) {
          ctx.overridden.push(`tls.${key}: the overlay's reference (PUT /config/settings, ${partial.overlayPath}) is in effect, not the file's`);
        }
      }
      effective = { ...effective, tls: { ...fileTls, ...tls } };
      ctx.notes.push(`tls settings from the overlay ${partial.overlayPath} (PUT /config/settings) are in effect`);
    }
    const hooks = overlay.overlay?.hooks;
    if (hooks !== undefined) {
      const applied = applyHookOverlay(effective, hooks, partial.overlayPath);
      effective = applied.document;
      ctx.overridden.push(...applied.overridden);
      if (applied.summary !== null) ctx.notes.push(applied.summary);
    }
  }

  const processOverrides = deprecatedFlags(effective, ctx);
  const rawConfig = { ...(interpolate(withoutBootstrap(effective), [], ctx) as object), ...bootstrap };
  const providers = await readYamlFile(partial.providersPath);
  ctx.issues.push(...providers.issues);
  const rawCatalog = providers.value === undefined ? undefined : interpolate(providers.value, [], ctx);

  const evaluated = await evaluate(rawConfig, rawCatalog, processOverrides, ctx);
  if (partial.overlayPath !== null) ctx.issues.push(...(await checkOverlayWritable(partial.overlayPath)));
  const adminToken = evaluated.secrets.get('auth.admin_token');
  return finish(ctx, { ...partial, ...evaluated, configSource, processOverrides, adminToken });
}

function newContext(purpose: LoadPurpose, safeMode: boolean, env: NodeJS.ProcessEnv, configDir: string): LoadContext {
  return { purpose, safeMode, env, configDir, issues: [], warnings: [], notes: [], unresolvedPaths: [], overridden: [] };
}

function interpolateBootstrap(fileRaw: unknown, ctx: LoadContext): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!isPlainObject(fileRaw)) return out;
  for (const key of BOOTSTRAP_KEYS) if (fileRaw[key] !== undefined) out[key] = interpolate(fileRaw[key], [key], ctx);
  return out;
}

function withoutBootstrap(raw: Record<string, unknown>): Record<string, unknown> {
  const out = { ...raw };
  for (const key of BOOTSTRAP_KEYS) delete out[key];
  return out;
}

function stringAt(value: unknown, ...keys: string[]): string | undefined {
  let node = value;
  for (const key of keys) node = isPlainObject(node) ? node[key] : undefined;
  return typeof node === 'string' && node !== '' ? node : undefined;
}

function finish(
  ctx: LoadContext,
  parts: Omit<LoadResult, 'ok' | 'errors' | 'warnings' | 'notes' | 'overridden' | 'secrets'> & { secrets?: Map<string, string> },
): LoadResult {
  // A setting whose value came from an unset ${VAR} is unknown: its other errors are noise;
  // the error (boot) or note (validate) naming the variable says what is wrong.
  const issues = ctx.issues.filter((item) => item.cause === true || !ctx.unresolvedPaths.some((path) => isUnderPath(item.path, path)));
  const errors = issues.map(renderIssue);
  return {
    ...parts,
    ok: errors.length === 0,
    errors,
    warnings: ctx.warnings,
    notes: ctx.notes,
    overridden: ctx.overridden,
    secrets: parts.secrets ?? new Map(),
  };
}
