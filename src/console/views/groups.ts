// Groups: each group's parent chain, its limits with the current window's use as bars (read
// again every 5 s), and its rate card.
import { api, must, type Schemas } from '../api.js';
import { n, money } from '../format.js';
import { html, useLoad, ErrorNotice } from '../ui.js';
import { currency } from './live.js';

type Group = Schemas['GroupView'];

type GroupUse = Schemas['GroupMeteringView'];
type LimitUse = GroupUse['limits'][number];

interface GroupsRead {
  groups: Group[];
  /** Each group's limits with the current window's use, by group name. */
  use: Map<string, GroupUse>;
}

async function allGroups(): Promise<GroupsRead> {
  const groups: Group[] = [];
  let cursor: string | undefined;
  do {
    const page = await must(api.GET('/groups', { params: { query: { limit: 100, cursor } } }));
    groups.push(...page.items);
    cursor = page.next_cursor ?? undefined;
  } while (cursor !== undefined);
  const uses = await Promise.all(groups.map((g) => must(api.GET('/groups/{name}/usage', { params: { path: { name: g.name } } }))));
  return { groups, use: new Map(uses.map((u) => [u.name, u])) };
}

function amount(metric: string, value: number, cur: string): string {
  return metric === 'budget' ? money(value, cur) : n(value);
}

/** One limit's row: its use in the current window as a bar, with what requests in flight hold. */
function limitRow(group: string, l: LimitUse, cur: string) {
  const label = `${group}: ${l.metric} per ${l.window}, used`;
  const held = l.reserved > 0 ? html` <span class="muted">(+${amount(l.metric, l.reserved, cur)} reserved)</span>` : null;
  return html`<tr><td>${l.metric}</td><td>${l.window}</td>
    <td><meter data-limit=${`${l.metric}-${l.window}`} min="0" max=${Math.max(1, l.max)} value=${Math.min(l.used, Math.max(1, l.max))} high=${l.max * 0.8} aria-label=${label}></meter>
      <span class="num"> ${amount(l.metric, l.used, cur)}</span>${held}</td>
    <td class="num">${amount(l.metric, l.max, cur)}</td></tr>`;
}

/** `name` and its ancestors, nearest first (bounded by the number of groups: no cycle can loop). */
function chain(byName: Map<string, Group>, name: string): string[] {
  const names = [name];
  let parent = byName.get(name)?.parent ?? null;
  while (parent !== null && names.length <= byName.size) {
    names.push(parent);
    parent = byName.get(parent)?.parent ?? null;
  }
  return names;
}

export function Groups() {
  const read = useLoad(allGroups, [], 5000);
  const error = read.error;
  const data = read.data?.groups ?? null;
  const use = read.data?.use ?? new Map<string, GroupUse>();
  const cur = useLoad(currency, []).data ?? 'USD';
  const byName = new Map((data ?? []).map((g) => [g.name, g]));
  return html`<section aria-labelledby="groups-title">
    <h1 id="groups-title">Groups</h1>
    <${ErrorNotice} error=${error} />
    ${data !== null && data.length === 0 ? html`<p>No groups yet.</p>` : null}
    ${(data ?? []).map(
      (g) => html`<section aria-labelledby=${`group-${g.name}`}>
      <h2 id=${`group-${g.name}`}>${g.name} ${g.enabled ? null : html`<span class="bad">(disabled)</span>`}</h2>
      <p>Chain: ${chain(byName, g.name).join(' → ')}</p>
      <p>Per-request fee: ${money(g.per_request_fee_micros, cur)}</p>
      ${
        g.limits.length === 0
          ? html`<p class="muted">No limits.</p>`
          : html`<div class="table-wrap" tabindex="0" role="region" aria-label="Scrollable table"><table><caption>Limits</caption>
        <thead><tr><th scope="col">Metric</th><th scope="col">Window</th><th scope="col">Used this window</th><th scope="col">Max</th></tr></thead>
        <tbody>${(use.get(g.name)?.limits ?? g.limits.map((l) => ({ ...l, used: 0, reserved: 0, window_start: null }))).map((l) => limitRow(g.name, l, cur))}</tbody></table></div>`
      }
      ${
        g.rate_card.length === 0
          ? null
          : html`<div class="table-wrap" tabindex="0" role="region" aria-label="Scrollable table"><table><caption>Rate card (per million tokens)</caption>
        <thead><tr><th scope="col">Model</th><th scope="col">Tier</th><th scope="col">Input</th><th scope="col">Output</th><th scope="col">Cache read</th><th scope="col">Cache write</th></tr></thead>
        <tbody>${g.rate_card.map(
          (r) =>
            html`<tr><td>${r.model}</td><td>${r.tier}</td><td class="num">${money(r.input_micros_per_mtok, cur)}</td><td class="num">${money(r.output_micros_per_mtok, cur)}</td><td class="num">${money(r.cache_read_micros_per_mtok, cur)}</td><td class="num">${money(r.cache_creation_micros_per_mtok, cur)}</td></tr>`,
        )}</tbody></table></div>`
      }
    </section>`,
    )}
  </section>`;
}
