// Resolves the secret references found in the config. `env:` and `file:` are read at boot and
// under --validate; `module:` is the compiled-in `generated` (generated-secret.ts: made at first
// boot and kept in a file), or a secret plugin, which is not available in this build: an error
// at boot and a note under --validate, which never resolves plugin references.
// A provider credential that comes out empty is not fatal: the provider runs and its lane
// fails auth on use, as the spec requires, with a warning at load.
import { isAbsolute, resolve } from 'node:path';
import { issue } from '../../shared/config/config-path.js';
import type { SecretSite } from '../../shared/config/secret-sites.js';
import { GENERATED_SECRET_MODULE, resolveGenerated } from './generated-secret.js';
import type { LoadContext } from './load-result.js';
import { readSecretFile } from './secret-file.js';

export async function resolveSecrets(sites: readonly SecretSite[], ctx: LoadContext): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const site of sites) {
    // A literal from an unset ${VAR} (validate only) is unknown, not empty: the note says so.
    if (site.kind === 'literal' && ctx.unresolvedPaths.includes(site.path)) continue;
    const value = await resolveSite(site, ctx);
    if (value !== undefined) out.set(site.path, value);
  }
  return out;
}

/** `providers.<name>.auth.*`: credentials whose absence degrades one provider, not the gateway. */
function providerOf(site: SecretSite): string | undefined {
  const [section, name, auth] = site.segments;
  return section === 'providers' && typeof name === 'string' && auth === 'auth' ? name : undefined;
}

function empty(site: SecretSite, what: string, ctx: LoadContext): string | undefined {
  const provider = providerOf(site);
  if (provider !== undefined) {
    ctx.warnings.push(`${site.path}: ${what}; provider "${provider}" runs and fails auth on use`);
    return '';
  }
  ctx.issues.push(issue(site.path, what));
  return undefined;
}

async function resolveSite(site: SecretSite, ctx: LoadContext): Promise<string | undefined> {
  if (site.kind === 'literal') return site.value === '' ? empty(site, 'the secret is empty', ctx) : site.value;
  const ref = site.ref;
  if ('env' in ref) {
    const value = ctx.env[ref.env];
    if (value === undefined) return empty(site, `environment variable ${ref.env} is not set`, ctx);
    if (value === '') return empty(site, `environment variable ${ref.env} is empty`, ctx);
    return value;
  }
  if ('file' in ref) {
    const path = isAbsolute(ref.file) ? ref.file : resolve(ctx.configDir, ref.file);
    const read = await readSecretFile(path);
    if ('error' in read) {
      ctx.issues.push(issue(site.path, read.error));
      return undefined;
    }
    return read.text === '' ? empty(site, `secret file ${path} is empty`, ctx) : read.text;
  }
  if (ref.module === GENERATED_SECRET_MODULE) return resolveGenerated(site.path, ref.settings ?? {}, ctx);
  if (ctx.purpose === 'validate') {
    ctx.notes.push(`${site.path}: served by secret plugin "${ref.module}"; not resolved by --validate`);
  } else {
    ctx.issues.push(issue(site.path, `secret plugin modules are not available in this build (module "${ref.module}")`));
  }
  return undefined;
}
