// Every config schema, for the loader and for the OpenAPI document.
export { DeploymentConfig } from './deployment.js';
export { ProviderCatalog, Provider, ProviderAuth, Protocol } from './providers.js';
export { OverlayFile } from './overlay.js';
export { SecretRef } from './secret-ref.js';
export { RESERVED_HOOK_NAMES } from './hooks.js';
export { inputSchema } from './input-schema.js';
