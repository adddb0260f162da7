// The two config commands of the `gateway` binary. Neither binds a port, writes a file, starts
// a worker or touches the network: they read the config files and report.
import process from 'node:process';
import { metadataDenylist } from '../../shared/config/metadata-hosts.js';
import { loadConfig } from './load.js';
import { resolveWorkerThreads } from './worker-threads.js';

export { bootDiagnostic } from './diagnostic.js';

/**
 * `gateway --validate`: load, resolve and validate, then exit 0 (valid) or 1 (errors).
 * Errors (one per line) and warnings go to `err`; notes and the verdict (`config OK` or
 * `N error(s)`) go to `out`. Unset `${VAR}` is a note; `env:`/`file:` secrets are resolved
 * (a failing one is an error); secret-plugin references are not resolved.
 */
export async function runValidate(opts: { configPath: string; safeMode: boolean }, out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  const result = await loadConfig({ configPath: opts.configPath, safeMode: opts.safeMode, purpose: 'validate' });
  const threads = resolveWorkerThreads(result.config, process.env);
  const warnings = threads.warning === undefined ? result.warnings : [...result.warnings, threads.warning];
  for (const warning of warnings) err.write(`warning: ${warning}\n`);
  for (const error of result.errors) err.write(`${error}\n`);
  out.write(`note: config ${result.configPath}\n`);
  out.write(`note: providers ${result.providersPath}\n`);
  out.write(`note: overlay ${result.overlayPath ?? '(none: config.locked is true)'}${opts.safeMode ? ' (ignored: --safe-mode)' : ''}\n`);
  for (const note of result.notes) out.write(`note: ${note}\n`);
  out.write(result.ok ? 'config OK\n' : `${result.errors.length} error(s)\n`);
  return result.ok ? 0 : 1;
}

/**
 * `gateway --print-metadata-blocklist`: the enforced cloud-metadata denylist, one host per
 * line: the built-in set plus `security.blocked_metadata_hosts` when the config parses
 * (otherwise the built-in set alone, with a notice on `err`). Allow lists are not subtracted.
 */
export async function runPrintMetadataBlocklist(opts: { configPath: string }, out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  const result = await loadConfig({ configPath: opts.configPath, safeMode: false, purpose: 'validate' });
  const blocked = result.config?.security.blocked_metadata_hosts;
  if (blocked === undefined) {
    const why = result.errors[0] ?? 'it does not parse';
    err.write(`gateway: cannot read security settings from ${result.configPath} (${why}); printing the built-in metadata denylist only\n`);
  }
  for (const host of metadataDenylist(blocked ?? [])) out.write(`${host}\n`);
  return 0;
}
