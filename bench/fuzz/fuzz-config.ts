// The gateway config the ingress fuzz runs against: the six protocols' lanes on the mock, each
// provider with an API key (so the answers can be checked for it), an open front door, and a
// mutable config whose overlay lives in the run's own folder.
import { randomBytes } from 'node:crypto';
import { PROTOCOLS } from './codec-properties.js';

/** Provider keys, fresh per run: each must never appear in an answer or a log. */
export function fuzzSecrets(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of PROTOCOLS) out[p] = `sk-fuzz-${p}-${randomBytes(12).toString('hex')}`;
  return out;
}

const BASE: Record<string, (mock: string) => Record<string, unknown>> = {
  openai: (m) => ({ protocol: 'openai', base_url: `${m}/v1` }),
  responses: (m) => ({ protocol: 'responses', base_url: `${m}/v1` }),
  anthropic: (m) => ({ protocol: 'anthropic', base_url: m, headers: { 'anthropic-version': '2023-06-01' } }),
  gemini: (m) => ({ protocol: 'gemini', base_url: `${m}/v1beta` }),
  bedrock: (m) => ({ protocol: 'bedrock', base_url: m }),
  ollama: (m) => ({ protocol: 'ollama', base_url: m }),
};

/** Deployment config fields and the provider catalog (without listen addresses). */
export function fuzzConfig(mockUrl: string, secrets: Record<string, string>): { config: Record<string, unknown>; providers: Record<string, unknown> } {
  const providers: Record<string, unknown> = {};
  const models: Record<string, unknown> = {};
  const pools: Record<string, unknown> = {};
  for (const p of PROTOCOLS) {
    providers[`mock-${p}`] = {
      ...BASE[p]!(mockUrl),
      auth: p === 'bedrock' ? { mode: 'header', header: 'x-fuzz-key', key: secrets[p] } : { mode: 'bearer', key: secrets[p] },
    };
    models[`lane-${p}`] = { provider: `mock-${p}`, upstream_model: `up-${p}` };
    pools[`pool-${p}`] = { members: [{ model: `lane-${p}`, weight: 1 }] };
  }
  pools.default = { members: PROTOCOLS.map((p) => ({ model: `lane-${p}`, weight: 1 })) };
  return {
    // Mutable (an overlay in the run's folder), so the hook writes can be fuzzed too.
    config: {
      auth: { chain: [], admin_auth: [], upstream_credentials: 'own' },
      models,
      pools,
      store: { module: 'memory' },
      config: { locked: false, overlay: { file: 'overlay.json' } },
    },
    providers,
  };
}
