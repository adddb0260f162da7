// What loading a config produces: the validated documents, resolved secrets, and every error,
// warning and note found on the way.
import type { ConfigIssue } from '../../shared/config/config-path.js';
import type { DeploymentConfig } from '../../shared/config/schema/deployment.js';
import type { ProviderCatalog } from '../../shared/config/schema/providers.js';

/**
 * Resolved secrets by config path: `providers.openai.auth.key`, `auth.signing_key`,
 * `tls.cert` (the PEM text, whatever form the config gave), `store.settings.password`...
 * An empty string is a provider credential whose variable was empty (it fails auth on use).
 */
export type ResolvedSecrets = ReadonlyMap<string, string>;

/** Process settings taken from deprecated variables because the config does not set them. */
export interface ProcessOverrides {
  upstreamHttp1Only?: boolean;
  upstreamH2PriorKnowledge?: boolean;
}

export type LoadPurpose = 'boot' | 'validate';

export interface LoadResult {
  ok: boolean;
  /** Every error, one line each, `path: message`. */
  errors: string[];
  warnings: string[];
  /** Informational lines; under `validate`, also what boot would refuse but validate tolerates. */
  notes: string[];
  /** Settings of the file the overlay overrides, one line each (POST /config/reload reports them). */
  overridden: string[];
  /** Present when the deployment config passed its schema (other checks may still have failed). */
  config?: DeploymentConfig;
  /** Present when the provider catalog passed its schema. */
  catalog?: ProviderCatalog;
  configPath: string;
  providersPath: string;
  /** The overlay file; null when the config is locked (no overlay is read or written). */
  overlayPath: string | null;
  /** Where the deployment config came from: the file, the overlay of API-applied changes, or a proposed document. */
  configSource: 'file' | 'overlay' | 'document';
  secrets: ResolvedSecrets;
  /** The operator token (`auth.admin_token`), when configured and resolved. */
  adminToken?: string;
  processOverrides: ProcessOverrides;
}

/** The mutable state one load accumulates. */
export interface LoadContext {
  purpose: LoadPurpose;
  safeMode: boolean;
  env: NodeJS.ProcessEnv;
  /** Folder of the config file; every relative path resolves against it. */
  configDir: string;
  issues: ConfigIssue[];
  warnings: string[];
  notes: string[];
  /**
   * Paths whose value came from an unset `${VAR}`: further errors there are consequences,
   * not causes, and are dropped (the error or note naming the variable stays).
   */
  unresolvedPaths: string[];
  /** See LoadResult.overridden. */
  overridden: string[];
}
