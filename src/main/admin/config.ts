// Config operations: read the effective config, apply a whole config (live on every worker,
// not written to disk), validate one, reload from disk, roll back to a retained version, and
// store setting groups that need a restart (PUT /config/settings, in the overlay).
import process from 'node:process';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { SecretRef } from '../../shared/config/schema/secret-ref.js';
import { readSecretFile } from '../config/secret-file.js';
import type { ApplyOutcome } from '../config-state.js';
import type { AdminContext } from './context.js';
import { EffectiveConfigView, effectiveConfigView } from './config-views.js';
import { refuseWhenLocked } from './locked.js';
import { AdminError, type AdminRoute } from './route.js';

const Uint = Type.Integer({ minimum: 0 });
const AnyConfig = Type.Record(Type.String(), Type.Unknown(), { description: "A full deployment config as JSON (the YAML file's content)." });

const ApplyBody = Type.Object(
  {
    config: AnyConfig,
    expected_version: Type.Optional(Type.Integer({ minimum: 0, description: 'Refuse with 409 version_conflict unless the live config_version is this.' })),
  },
  { additionalProperties: false, title: 'ConfigApplyBody' },
);
const ValidateBody = Type.Object({ config: AnyConfig }, { additionalProperties: false, title: 'ConfigValidateBody' });
const RollbackBody = Type.Object(
  { version: Type.Integer({ minimum: 0, description: 'A retained version.' }) },
  { additionalProperties: false, title: 'ConfigRollbackBody' },
);
const TlsRefs = Type.Object(
  { cert: SecretRef, key: SecretRef, client_ca: Type.Optional(SecretRef) },
  { additionalProperties: false, description: 'Inbound TLS material as secret references; applies at the next start.' },
);
const SettingsBody = Type.Object({ tls: TlsRefs }, { additionalProperties: false, title: 'ConfigSettingsBody' });

const ConfigApplyView = Type.Object({ applied: Type.Boolean(), config_version: Uint, note: Type.String() }, { title: 'ConfigApplyView' });
const ConfigReloadView = Type.Object(
  {
    reloaded: Type.Boolean(),
    config_version: Uint,
    not_applied: Type.Array(Type.String(), {
      description:
        'What the files say that this reload could not put in effect, one line each naming the setting and why: overridden by the overlay (API changes), or read only at start (a restart applies it). Empty when everything is live.',
    }),
  },
  { title: 'ConfigReloadView' },
);
const ConfigRollbackView = Type.Object({ restored_version: Uint, config_version: Uint }, { title: 'ConfigRollbackView' });
const ConfigValidateView = Type.Object({ ok: Type.Boolean(), errors: Type.Array(Type.String()) }, { title: 'ConfigValidateView' });
const ConfigSettingsView = Type.Object(
  { reload_to_apply: Type.Array(Type.String(), { description: 'Setting names that need a restart to take effect.' }), note: Type.String() },
  { title: 'ConfigSettingsView' },
);

function refuseUnapplied(outcome: ApplyOutcome): void {
  if (outcome.conflict === true) throw new AdminError(409, 'version_conflict', `expected_version is stale: the live config_version is ${outcome.version}`);
  if (!outcome.applied) throw new AdminError(400, 'invalid_request', `invalid config (${outcome.errors.length} error(s)): ${outcome.errors.join('; ')}`);
}

/** Each env/file reference must resolve now, so a restart does not fail on a typo. */
async function checkRefsResolve(refs: Record<string, unknown>): Promise<void> {
  const problems: string[] = [];
  for (const [name, ref] of Object.entries(refs)) {
    if (!Value.Check(SecretRef, ref)) continue;
    if ('env' in ref && (process.env[ref.env] ?? '') === '') problems.push(`tls.${name}: environment variable ${ref.env} is not set or empty`);
    if ('file' in ref) {
      const read = await readSecretFile(ref.file);
      if ('error' in read) problems.push(`tls.${name}: ${read.error}`);
    }
  }
  if (problems.length > 0) throw new AdminError(400, 'invalid_request', problems.join('; '));
}

export const configRoutes: AdminRoute<AdminContext>[] = [
  {
    method: 'GET',
    path: '/config',
    operationId: 'getConfig',
    summary: 'The effective config (no secrets)',
    tag: 'config',
    responses: { 200: EffectiveConfigView },
    handler: (_call, ctx) => ({ status: 200, body: effectiveConfigView(ctx.config) }),
  },
  {
    method: 'POST',
    path: '/config/apply',
    operationId: 'applyConfig',
    summary: 'Apply a full deployment config on every worker (live, not written to disk)',
    tag: 'config',
    body: ApplyBody,
    responses: { 200: ConfigApplyView },
    audit: { action: 'config.apply', resource: () => 'config' },
    async handler(call, ctx) {
      refuseWhenLocked(ctx);
      const body = call.body as Static<typeof ApplyBody>;
      const outcome = await ctx.config.applyDocument(ctx.workers, body.config, { principal: call.principal.id, expectedVersion: body.expected_version });
      refuseUnapplied(outcome);
      return {
        status: 200,
        body: {
          applied: true,
          config_version: outcome.version,
          note: 'live on every worker; not written to disk: a restart boots from the files and the overlay again',
        },
      };
    },
  },
  {
    method: 'POST',
    path: '/config/validate',
    operationId: 'validateConfig',
    summary: 'Validate a proposed deployment config (200 with ok:false when it is invalid)',
    tag: 'config',
    // Changes nothing: a read in authority terms.
    scope: 'read-only',
    body: ValidateBody,
    responses: { 200: ConfigValidateView },
    async handler(call, ctx) {
      const result = await ctx.config.validateDocument((call.body as Static<typeof ValidateBody>).config);
      return { status: 200, body: result };
    },
  },
  {
    method: 'POST',
    path: '/config/reload',
    operationId: 'reloadConfig',
    summary: 'Reload the config files (and the overlay) from disk',
    tag: 'config',
    responses: { 200: ConfigReloadView },
    audit: { action: 'config.reload', resource: () => 'config' },
    async handler(call, ctx) {
      const outcome = await ctx.config.reload(ctx.workers, call.principal.id);
      refuseUnapplied(outcome);
      return { status: 200, body: { reloaded: true, config_version: outcome.version, not_applied: outcome.notApplied ?? [] } };
    },
  },
  {
    method: 'POST',
    path: '/config/rollback',
    operationId: 'rollbackConfig',
    summary: 'Apply a retained version again, as a new version',
    tag: 'config',
    body: RollbackBody,
    responses: { 200: ConfigRollbackView },
    audit: { action: 'config.rollback', resource: (call) => `config:${(call.body as { version?: unknown } | undefined)?.version ?? '?'}` },
    async handler(call, ctx) {
      refuseWhenLocked(ctx);
      const { version } = call.body as Static<typeof RollbackBody>;
      const outcome = await ctx.config.rollback(ctx.workers, version, call.principal.id);
      if (outcome === undefined) throw new AdminError(404, 'not_found', `config version ${version} is not retained`);
      refuseUnapplied(outcome);
      return { status: 200, body: { restored_version: version, config_version: outcome.version } };
    },
  },
  {
    method: 'PUT',
    path: '/config/settings',
    operationId: 'putConfigSettings',
    summary: 'Store setting groups that apply at the next start (tls), in the overlay',
    tag: 'config',
    body: SettingsBody,
    responses: { 200: ConfigSettingsView },
    audit: { action: 'config.settings', resource: (call) => `settings:${Object.keys((call.body as object | undefined) ?? {}).join(',')}` },
    async handler(call, ctx) {
      refuseWhenLocked(ctx);
      const body = call.body as Static<typeof SettingsBody>;
      await checkRefsResolve(body.tls);
      await ctx.config.putSettings(body);
      return {
        status: 200,
        body: { reload_to_apply: ['tls'], note: `stored in the overlay ${ctx.config.loaded.overlayPath}; TLS is loaded once at start: POST /restart to apply` },
      };
    },
  },
];
