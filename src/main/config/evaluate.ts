// The checks shared by boot, --validate and the admin API's proposed configs: defaults,
// schemas, cross references, provider checks, secrets, TLS. Input documents are already
// interpolated; every problem lands in `ctx`, none is thrown.
import { formatPath, issue } from '../../shared/config/config-path.js';
import type { MetadataPolicy } from '../../shared/config/metadata-hosts.js';
import { DeploymentConfig } from '../../shared/config/schema/deployment.js';
import { ProviderCatalog } from '../../shared/config/schema/providers.js';
import { applyDefaults } from '../../shared/config/schema-defaults.js';
import { schemaIssues } from '../../shared/config/schema-errors.js';
import { findSecretSites } from '../../shared/config/secret-sites.js';
import { checkDeployment } from './deployment-checks.js';
import type { LoadContext, ProcessOverrides } from './load-result.js';
import { checkProviderCredentials, checkProviders } from './provider-checks.js';
import { checkReferences } from './references.js';
import { checkEgressUrls } from './egress-checks.js';
import { resolveSecrets } from './secrets.js';
import { field, stringsOf } from './shape.js';
import { checkTls } from './tls-check.js';

export interface Evaluated {
  config?: DeploymentConfig;
  catalog?: ProviderCatalog;
  secrets: Map<string, string>;
}

/** `rawCatalog` undefined: the catalog could not be read (its error is already in ctx). */
export async function evaluate(rawConfig: unknown, rawCatalog: unknown, overrides: ProcessOverrides, ctx: LoadContext): Promise<Evaluated> {
  const config = applyDefaults(DeploymentConfig, rawConfig);
  const configIssues = schemaIssues(DeploymentConfig, config);
  ctx.issues.push(...configIssues);
  let catalog: unknown;
  let catalogIssues = 0;
  if (rawCatalog !== undefined) {
    catalog = applyDefaults(ProviderCatalog, rawCatalog);
    const found = schemaIssues(ProviderCatalog, catalog);
    catalogIssues = found.length;
    ctx.issues.push(...found);
  }

  checkDeployment(config, ctx);
  checkReferences(config, catalog, ctx);
  checkProviders(catalog, metadataPolicy(config), ctx);
  checkEgressUrls(config, catalog, metadataPolicy(config), ctx);
  checkUpstreamFlags(config, overrides, ctx);

  const sites = [...findSecretSites(DeploymentConfig, config), ...(catalog === undefined ? [] : findSecretSites(ProviderCatalog, catalog))];
  const secrets = await resolveSecrets(sites, ctx);
  checkProviderCredentials(catalog, secrets, ctx);
  await checkTls(field(config, 'tls'), secrets, ctx);
  if (field(config, 'store', 'module') === 'memory') {
    ctx.notes.push('store.module is memory: keys, groups and usage are lost when the process exits');
  }
  return {
    config: configIssues.length === 0 ? (config as DeploymentConfig) : undefined,
    catalog: catalog !== undefined && catalogIssues === 0 ? (catalog as ProviderCatalog) : undefined,
    secrets,
  };
}

function metadataPolicy(config: unknown): MetadataPolicy {
  return {
    blocked: stringsOf(field(config, 'security', 'blocked_metadata_hosts')).map(([, host]) => host),
    allowed: stringsOf(field(config, 'security', 'allow_metadata_hosts')).map(([, host]) => host),
    allowAll: field(config, 'security', 'allow_all_metadata') === true,
  };
}

function checkUpstreamFlags(config: unknown, overrides: ProcessOverrides, ctx: LoadContext): void {
  const http1 = overrides.upstreamHttp1Only ?? field(config, 'advanced', 'upstream_http1_only');
  const h2 = overrides.upstreamH2PriorKnowledge ?? field(config, 'advanced', 'upstream_h2_prior_knowledge');
  if (http1 === true && h2 === true) {
    ctx.issues.push(issue(formatPath(['advanced', 'upstream_h2_prior_knowledge']), 'conflicts with advanced.upstream_http1_only (both are on)'));
  }
}
