// What several views read: every pool with its members' live status (GET /pools, then GET
// /pools/{name} each), and the currency money is counted in (governance.currency, via GET /usage).
import { api, must } from '../api.js';
import type { paths } from '../generated/admin-api.js';

export type PoolDetail = paths['/pools/{name}']['get']['responses'][200]['content']['application/json'];

export async function livePools(): Promise<PoolDetail[]> {
  const names: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await must(api.GET('/pools', { params: { query: { limit: 100, cursor } } }));
    names.push(...page.items.map((p) => p.name));
    cursor = page.next_cursor ?? undefined;
  } while (cursor !== undefined);
  return Promise.all(names.map((name) => must(api.GET('/pools/{name}', { params: { path: { name } } }))));
}

/** The configured currency (an ISO code); read once per view. */
export async function currency(): Promise<string> {
  return (await must(api.GET('/usage'))).currency;
}
