// Usage: one UTC day (the day picker) by model and by key, as tables and bar charts; the
// `by_key_truncated` / `others` row shown as such.
import { useState } from 'preact/hooks';
import { api, must, type Schemas } from '../api.js';
import { money, n } from '../format.js';
import { html, useLoad, ErrorNotice } from '../ui.js';

type Breakdown = Schemas['UsageBreakdown'];
interface Row {
  label: string;
  b: Breakdown;
  note?: string;
}

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

function Rows({ rows, currency, max }: { rows: Row[]; currency: string; max: number }) {
  return rows.map(
    ({ label, b, note }) => html`<tr>
    <th scope="row">${label}${note === undefined ? null : html` <span class="muted">${note}</span>`}</th>
    <td class="num">${n(b.requests)}</td><td class="num">${n(b.tokens_input)}</td><td class="num">${n(b.tokens_output)}</td>
    <td class="num">${money(b.spend_micros, currency)}</td>
    <td><meter min="0" max=${max} value=${b.spend_micros} aria-label=${`${label} spend`}></meter></td>
  </tr>`,
  );
}

function Table({ title, rows, currency }: { title: string; rows: Row[]; currency: string }) {
  const max = Math.max(1, ...rows.map((r) => r.b.spend_micros));
  return html`<div class="table-wrap" tabindex="0" role="region" aria-label="Scrollable table"><table>
    <caption>${title}</caption>
    <thead><tr><th scope="col">Name</th><th scope="col">Requests</th><th scope="col">Input tokens</th><th scope="col">Output tokens</th><th scope="col">Spend</th><th scope="col">Spend chart</th></tr></thead>
    <tbody><${Rows} rows=${rows} currency=${currency} max=${max} /></tbody>
  </table></div>`;
}

export function Usage() {
  const [day, setDay] = useState(today());
  const window = Math.floor(Date.parse(`${day}T00:00:00Z`) / 1000);
  const { data, error } = useLoad(() => must(api.GET('/usage', { params: { query: { window } } })), [window], 5000);
  const keys: Row[] = (data?.by_key ?? []).map((k) => ({ label: k.name === null ? k.id : `${k.name} (${k.id})`, b: k as Breakdown }));
  if (data?.others) keys.push({ label: 'others', b: data.others, note: '(keys past the top 1000, summed)' });
  return html`<section aria-labelledby="usage-title">
    <h1 id="usage-title">Usage</h1>
    <form class="inline" onSubmit=${(e: Event) => e.preventDefault()}>
      <label>UTC day<input id="usage-day" type="date" value=${day} max=${today()} onChange=${(e: Event) => setDay((e.currentTarget as HTMLInputElement).value || today())} /></label>
    </form>
    <${ErrorNotice} error=${error} />
    ${
      data === null
        ? null
        : html`<p>Total: <strong>${n(data.total.requests)}</strong> requests, ${n(data.total.tokens_input + data.total.tokens_output)} tokens, ${money(data.total.spend_micros, data.currency)}</p>
      <${Table} title="By model" currency=${data.currency} rows=${data.by_model.map((m) => ({ label: `${m.model} (${m.provider})`, b: m }))} />
      <${Table} title=${data.by_key_truncated ? 'By key (top 1000 by spend, then the rest)' : 'By key'} currency=${data.currency} rows=${keys} />`
    }
  </section>`;
}
