// Cross references between the two documents: lanes name providers, pool members name lanes,
// fallback pools name pools without looping.
import { issue } from '../../shared/config/config-path.js';
import type { LoadContext } from './load-result.js';
import { entriesOf, field, isPlainObject, knownList } from './shape.js';

/** `catalog` is undefined when the provider catalog could not be read at all. */
export function checkReferences(config: unknown, catalog: unknown, ctx: LoadContext): void {
  const providers = field(catalog, 'providers');
  if (isPlainObject(providers)) {
    for (const [name, lane] of entriesOf(field(config, 'models'))) {
      const provider = lane.provider;
      if (typeof provider === 'string' && !Object.hasOwn(providers, provider)) {
        ctx.issues.push(issue(['models', name, 'provider'], `unknown provider "${provider}" (${knownList(Object.keys(providers))})`));
      }
    }
  }
  const models = field(config, 'models');
  const pools = entriesOf(field(config, 'pools'));
  const poolNames = new Set(pools.map(([name]) => name));
  for (const [pool, definition] of pools) {
    checkMembers(pool, definition.members, isPlainObject(models) ? models : {}, ctx);
    const fallback = field(definition, 'on_exhausted', 'fallback_pool');
    if (typeof fallback === 'string' && !poolNames.has(fallback)) {
      ctx.issues.push(issue(['pools', pool, 'on_exhausted', 'fallback_pool'], `unknown pool "${fallback}" (${knownList(poolNames)})`));
    }
  }
  checkFallbackLoops(pools, ctx);
}

function checkMembers(pool: string, members: unknown, models: Record<string, unknown>, ctx: LoadContext): void {
  if (!Array.isArray(members)) return;
  const seenAt = new Map<string, number>();
  members.forEach((member, index) => {
    const model = field(member, 'model');
    if (typeof model !== 'string') return;
    if (!Object.hasOwn(models, model)) {
      ctx.issues.push(issue(['pools', pool, 'members', index, 'model'], `unknown model "${model}" (${knownList(Object.keys(models))})`));
    } else if (seenAt.has(model)) {
      ctx.issues.push(issue(['pools', pool, 'members', index, 'model'], `model "${model}" is already members[${seenAt.get(model)}] of this pool`));
    } else {
      seenAt.set(model, index);
    }
  });
}

/** Each fallback cycle is reported once, at its first pool in config order. */
function checkFallbackLoops(pools: Array<[string, Record<string, unknown>]>, ctx: LoadContext): void {
  const next = new Map<string, string>();
  for (const [pool, definition] of pools) {
    const fallback = field(definition, 'on_exhausted', 'fallback_pool');
    if (typeof fallback === 'string') next.set(pool, fallback);
  }
  const reported = new Set<string>();
  for (const [start] of pools) {
    if (reported.has(start)) continue;
    const chain = [start];
    let current = next.get(start);
    while (current !== undefined && !chain.includes(current)) {
      chain.push(current);
      current = next.get(current);
    }
    if (current !== start) continue;
    chain.forEach((pool) => reported.add(pool));
    ctx.issues.push(issue(['pools', start, 'on_exhausted', 'fallback_pool'], `fallback loop: ${[...chain, start].join(' -> ')}`));
  }
}
