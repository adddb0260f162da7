// The deployment config (gateway.yaml), assembled from one schema per section.
import { Type, type Static } from '@sinclair/typebox';
import { AdvancedSection } from './advanced.js';
import { AuthSection } from './auth.js';
import { ConfigSection } from './config-section.js';
import { ExportSection } from './export.js';
import { GovernanceSection } from './governance.js';
import { HealthSection } from './health.js';
import { GlobalHooks, HooksSection } from './hooks.js';
import { LogsSection } from './logs.js';
import { IdentityProvidersSection } from './identity-providers.js';
import { AdminListen, Listen } from './listen.js';
import { ModelsSection } from './models.js';
import { PoolsSection } from './pools.js';
import { RoleBindingsSection } from './role-bindings.js';
import { SecuritySection } from './security.js';
import { StoreSection } from './store.js';
import { ResponsesStoreSection } from './responses-store.js';
import { TlsSettings } from './tls.js';

export const DeploymentConfig = Type.Object(
  {
    listen: Listen,
    admin_listen: AdminListen,
    providers_file: Type.String({
      minLength: 1,
      default: 'providers.yaml',
      description: "Path of the provider catalog; relative to the config file's folder.",
    }),
    public_url: Type.Optional(
      Type.String({ minLength: 1, description: 'External URL of the data plane; token exchange is served at `<public_url>/auth/token`.' }),
    ),
    auth: AuthSection,
    models: ModelsSection,
    pools: PoolsSection,
    store: StoreSection,
    responses_store: ResponsesStoreSection,
    config: ConfigSection,
    tls: Type.Optional(TlsSettings),
    security: SecuritySection,
    advanced: AdvancedSection,
    health: HealthSection,
    governance: Type.Optional(GovernanceSection),
    hooks: HooksSection,
    global_hooks: GlobalHooks,
    logs: LogsSection,
    export: ExportSection,
    'identity-providers': IdentityProvidersSection,
    role_bindings: RoleBindingsSection,
  },
  { additionalProperties: false, description: 'The deployment config (gateway.yaml).' },
);
export type DeploymentConfig = Static<typeof DeploymentConfig>;
