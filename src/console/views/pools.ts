// Pools and lanes: each member's twelve PoolMemberStatusView fields through its (pool, lane)
// breaker cell, with the recovery hint, refreshed every few seconds.
import { n, ms, seconds, when } from '../format.js';
import { html, useLoad, ErrorNotice } from '../ui.js';
import { livePools, type PoolDetail } from './live.js';

const REFRESH_MS = 2000;
const UNBOUNDED = 2147483647;

type Member = PoolDetail['members'][number];

function breaker(m: Member): string {
  if (m.dead) return 'dead';
  if (!m.usable) return 'open';
  return m.trip_count > 0 ? 'closed (tripped before)' : 'closed';
}

function hint(m: Member): string {
  if (m.dead) return 'lane dead: check the provider and its credentials';
  if (!m.usable) return `usable again in ${seconds(m.cooldown_remaining_seconds)} (then one probe decides)`;
  if (m.available_concurrency === 0) return 'no free permits: requests queue or go to other members';
  return '';
}

function PoolTable({ pool }: { pool: PoolDetail }) {
  return html`<section aria-labelledby=${`pool-${pool.name}`}>
    <h2 id=${`pool-${pool.name}`}>Pool ${pool.name}</h2>
    <div class="table-wrap" tabindex="0" role="region" aria-label="Scrollable table"><table data-pool=${pool.name}>
      <caption class="muted">One breaker cell per member of this pool</caption>
      <thead><tr>
        <th scope="col">Model (lane)</th><th scope="col">Weight</th><th scope="col">Usable</th><th scope="col">Breaker</th>
        <th scope="col">Cooldown left</th><th scope="col">Free permits</th><th scope="col">In flight</th><th scope="col">Latency</th>
        <th scope="col">OK</th><th scope="col">Errors</th><th scope="col">Dead</th><th scope="col">Trips</th><th scope="col">Last trip</th><th scope="col">Recovery</th>
      </tr></thead>
      <tbody>
        ${pool.members.map(
          (m) => html`<tr data-model=${m.model}>
          <th scope="row">${m.model}</th>
          <td class="num">${m.weight}</td>
          <td class=${m.usable ? 'good usable' : 'bad usable'}>${m.usable ? 'yes' : 'no'}</td>
          <td class="breaker">${breaker(m)}</td>
          <td class="num">${seconds(m.cooldown_remaining_seconds)}</td>
          <td class="num">${m.available_concurrency >= UNBOUNDED ? 'unbounded' : n(m.available_concurrency)}</td>
          <td class="num">${n(m.inflight)}</td>
          <td class="num">${ms(m.latency_ms)}</td>
          <td class="num ok">${n(m.ok)}</td>
          <td class="num err">${n(m.err)}</td>
          <td>${m.dead ? 'yes' : 'no'}</td>
          <td class="num">${n(m.trip_count)}</td>
          <td>${when(m.last_trip_at)}</td>
          <td>${hint(m)}</td>
        </tr>`,
        )}
      </tbody>
    </table></div>
  </section>`;
}

export function Pools() {
  const { data, error } = useLoad(livePools, [], REFRESH_MS);
  return html`<section aria-labelledby="pools-title">
    <h1 id="pools-title">Pools and lanes</h1>
    <p class="muted">Live from shared memory, refreshed every ${REFRESH_MS / 1000} s.</p>
    <${ErrorNotice} error=${error} />
    ${data === null ? html`<p>Loading…</p>` : data.map((pool) => html`<${PoolTable} pool=${pool} />`)}
  </section>`;
}
