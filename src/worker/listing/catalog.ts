// What a caller may see in a model listing: the pools, then the lanes (a lane is reachable by
// name on the protocol routes and by a direct route), each kept only when the caller's key
// may use it, by the same rule admission applies (allowed_pools, a disabled key or a frozen
// group sees nothing). The open front door (`auth.chain: []`) sees everything.
import type { ProtocolName } from '../../shared/model/types.js';
import { checkAccess } from '../governance/admission.js';
import type { AdmissionKey } from '../governance/key-table.js';
import type { Runtime } from '../runtime.js';

export interface ListedModel {
  /** The name a request sends as its model: a pool's or a lane's. */
  id: string;
  kind: 'pool' | 'lane';
  /** The provider that serves it (a pool's first member's). */
  provider: string;
  protocol: ProtocolName;
  /** The upstream model a lane calls ('' for a pool). */
  upstreamModel: string;
}

export function visibleModels(runtime: Runtime, key: AdmissionKey | null): ListedModel[] {
  const out: ListedModel[] = [];
  for (const pool of runtime.pools.values()) {
    const name = pool.compiled.name;
    if (key !== null && checkAccess(key, name) !== null) continue;
    const first = pool.members[0];
    out.push({
      id: name,
      kind: 'pool',
      provider: first !== undefined ? first.provider.compiled.name : '',
      protocol: first !== undefined ? first.provider.compiled.protocol : 'openai',
      upstreamModel: '',
    });
  }
  for (const lane of runtime.lanes) {
    const name = lane.compiled.name;
    // A pool and a lane of one name: the name resolves to the pool, listed once.
    if (runtime.pools.has(name)) continue;
    if (key !== null && checkAccess(key, name) !== null) continue;
    out.push({
      id: name,
      kind: 'lane',
      provider: lane.provider.compiled.name,
      protocol: lane.provider.compiled.protocol,
      upstreamModel: lane.compiled.upstreamModel,
    });
  }
  return out;
}

/** One visible model by the name a client gave (Gemini's `models/` prefix dropped), or undefined. */
export function findVisible(models: readonly ListedModel[], name: string): ListedModel | undefined {
  const id = name.startsWith('models/') ? name.slice('models/'.length) : name;
  for (const m of models) if (m.id === id) return m;
  return undefined;
}
