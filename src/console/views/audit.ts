// Audit: the ring, paged, and the hash chain of the page checked here: each entry's hash is
// sha256(chain_prev_hash|seq|ts|action|resource|outcome|principal) and each prev_hash is the
// hash of the entry before it.
import { useState } from 'preact/hooks';
import { api, must, type Schemas } from '../api.js';
import { when } from '../format.js';
import { html, useLoad, ErrorNotice } from '../ui.js';

type Entry = Schemas['AuditEntry'];
const PAGE_SIZE = 50;

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

async function verify(entries: Entry[]): Promise<string> {
  if (entries.length === 0) return 'nothing to verify';
  const bySeq = [...entries].sort((a, b) => a.seq - b.seq);
  for (let i = 0; i < bySeq.length; i++) {
    const e = bySeq[i]!;
    const expected = await sha256Hex([e.chain_prev_hash, e.seq, e.ts, e.action, e.resource, e.outcome, e.principal].join('|'));
    if (expected !== e.hash) return `broken: entry ${e.seq}'s hash does not match its fields`;
    const before = bySeq[i - 1];
    if (before !== undefined && before.seq === e.seq - 1 && e.prev_hash !== before.hash) return `broken: entry ${e.seq} does not follow entry ${before.seq}`;
  }
  return `verified: ${bySeq.length} entries (${bySeq[0]!.seq}–${bySeq[bySeq.length - 1]!.seq}) chain correctly`;
}

export function Audit() {
  const [cursors, setCursors] = useState<Array<string | undefined>>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const { data, error } = useLoad(async () => {
    const page = await must(api.GET('/audit', { params: { query: { limit: PAGE_SIZE, cursor } } }));
    return { page, verdict: await verify(page.items) };
  }, [cursor]);
  return html`<section aria-labelledby="audit-title">
    <h1 id="audit-title">Audit</h1>
    <${ErrorNotice} error=${error} />
    ${data === null ? null : html`<p id="chain" class=${data.verdict.startsWith('verified') ? 'good' : 'bad'}>Chain of this page: ${data.verdict}</p>`}
    <div class="table-wrap" tabindex="0" role="region" aria-label="Scrollable table"><table>
      <thead><tr><th scope="col">Seq</th><th scope="col">Time</th><th scope="col">Action</th><th scope="col">Resource</th><th scope="col">Outcome</th><th scope="col">Principal</th></tr></thead>
      <tbody>${(data?.page.items ?? []).map(
        (e) =>
          html`<tr><td class="num">${e.seq}</td><td>${when(e.ts)}</td><td>${e.action}</td><td>${e.resource}</td><td class=${e.outcome === 'applied' ? 'good' : 'bad'}>${e.outcome}</td><td>${e.principal}</td></tr>`,
      )}</tbody>
    </table></div>
    <div class="row">
      <button class="secondary" type="button" disabled=${cursors.length === 1} onClick=${() => setCursors(cursors.slice(0, -1))}>Previous page</button>
      <button class="secondary" type="button" disabled=${!data?.page.next_cursor} onClick=${() => setCursors([...cursors, data!.page.next_cursor!])}>Next page</button>
    </div>
  </section>`;
}
