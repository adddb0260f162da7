// Environment variables that predate config settings. Honoured for one release with one
// warning each; when the config sets the same thing, the config wins and the warning says so.
// The worker-thread variables are read where the thread count is decided (worker-threads.ts).
import { issue } from '../../shared/config/config-path.js';
import { isPlainObject } from '../../shared/config/schema-walk.js';
import type { LoadContext, ProcessOverrides } from './load-result.js';

function deprecationWarning(variable: string, setting: string, overridden: boolean): string {
  const base = `${variable} is deprecated and will be removed in the next release; set ${setting} in the config instead`;
  return overridden ? `${base} (ignored: the config sets ${setting})` : base;
}

function nested(raw: unknown, ...keys: string[]): unknown {
  let node = raw;
  for (const key of keys) node = isPlainObject(node) ? node[key] : undefined;
  return node;
}

function parseFlag(variable: string, text: string, ctx: LoadContext): boolean | undefined {
  const lower = text.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(lower)) return true;
  if (['0', 'false', 'no', 'off'].includes(lower)) return false;
  ctx.issues.push(issue(variable, `expected true or false, got ${JSON.stringify(text)}`));
  return undefined;
}

function present(ctx: LoadContext, name: string): string | undefined {
  return ctx.env[name] === '' ? undefined : ctx.env[name];
}

/** GATEWAY_PROVIDERS and GATEWAY_CONFIG_OVERLAY, read against the raw config file. */
export function deprecatedPaths(fileRaw: unknown, ctx: LoadContext): { providersFile?: string; overlayFile?: string } {
  const out: { providersFile?: string; overlayFile?: string } = {};
  const providers = present(ctx, 'GATEWAY_PROVIDERS');
  if (providers !== undefined) {
    const overridden = nested(fileRaw, 'providers_file') !== undefined;
    ctx.warnings.push(deprecationWarning('GATEWAY_PROVIDERS', 'providers_file', overridden));
    if (!overridden) out.providersFile = providers;
  }
  const overlay = present(ctx, 'GATEWAY_CONFIG_OVERLAY');
  if (overlay !== undefined) {
    const overridden = nested(fileRaw, 'config', 'overlay', 'file') !== undefined;
    ctx.warnings.push(deprecationWarning('GATEWAY_CONFIG_OVERLAY', 'config.overlay.file', overridden));
    if (!overridden) out.overlayFile = overlay;
  }
  return out;
}

/** The upstream-protocol flags, read against the raw effective config (file or overlay). */
export function deprecatedFlags(raw: unknown, ctx: LoadContext): ProcessOverrides {
  const out: ProcessOverrides = {};
  const flags: Array<[string, string, keyof ProcessOverrides]> = [
    ['GATEWAY_UPSTREAM_HTTP1_ONLY', 'upstream_http1_only', 'upstreamHttp1Only'],
    ['GATEWAY_UPSTREAM_H2_PRIOR_KNOWLEDGE', 'upstream_h2_prior_knowledge', 'upstreamH2PriorKnowledge'],
  ];
  for (const [variable, key, override] of flags) {
    const text = present(ctx, variable);
    if (text === undefined) continue;
    const overridden = nested(raw, 'advanced', key) !== undefined;
    ctx.warnings.push(deprecationWarning(variable, `advanced.${key}`, overridden));
    const flag = parseFlag(variable, text, ctx);
    if (!overridden && flag !== undefined) out[override] = flag;
  }
  return out;
}
