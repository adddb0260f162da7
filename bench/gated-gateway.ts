// The bench gateway with one socket gate that orders the pool's members (a second lane m2 on
// the same mock, put first by the gate's `order` setting): shared by the gate scenarios.
import type { GatewayConfigFiles } from './scenario.js';
import { startExampleSocketHook } from './example-hook.js';

export function useOrderingGate(files: GatewayConfigFiles): void {
  files.gateway.models = { ...(files.gateway.models as Record<string, unknown>), m2: { provider: 'mock', upstream_model: 'mock-gpt' } };
  files.gateway.hooks = {
    order: {
      kind: 'gate',
      socket: startExampleSocketHook('gate', files.proxyCores ?? null),
      timeout_ms: 1000,
      on_error: 'weighted',
      settings: { order: ['m2'] },
    },
  };
  files.gateway.pools = { default: { members: [{ model: 'm' }, { model: 'm2' }], hooks: ['order'] } };
}
