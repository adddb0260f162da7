// Keys: the list (paged), mint (the secret shown once with a copy button; it lives only in this
// view's state and is gone once the view is left), and per key: PATCH, rotate, revoke and the
// metering view with headroom.
import { useState } from 'preact/hooks';
import { api, must } from '../api.js';
import { cents, n, when } from '../format.js';
import { html, useLoad, useAction, useCanWrite, ErrorNotice, Outcome } from '../ui.js';
import { currency } from './live.js';

const PAGE_SIZE = 20;

function optionalInt(form: HTMLFormElement, name: string): number | null {
  const value = (form.elements.namedItem(name) as HTMLInputElement).value.trim();
  return value === '' ? null : Number(value);
}

function text(form: HTMLFormElement, name: string): string {
  return (form.elements.namedItem(name) as HTMLInputElement).value.trim();
}

function SecretOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(secret);
    setCopied(true);
  };
  return html`<div class="notice" role="status">
    <p><strong>The key's secret, shown this once:</strong> it is not stored anywhere the console or the API can show it again.</p>
    <p><code id="secret" class="secret">${secret}</code></p>
    <div class="row">
      <button id="copy-secret" type="button" onClick=${copy}>${copied ? 'Copied' : 'Copy'}</button>
      <button class="secondary" type="button" onClick=${onDone}>I have saved it</button>
    </div>
  </div>`;
}

function MintForm({ onMinted }: { onMinted: (secret: string) => void }) {
  const [done, failed, act] = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const group = text(form, 'group');
    const pools = text(form, 'allowed_pools')
      .split(',')
      .map((p) => p.trim())
      .filter((p) => p !== '');
    const body: Record<string, unknown> = { name: text(form, 'name'), allowed_pools: pools };
    if (group !== '') body.group = group;
    const rpm = optionalInt(form, 'rpm_limit');
    if (rpm !== null) body.rpm_limit = rpm;
    const budget = optionalInt(form, 'max_budget_cents');
    if (budget !== null) body.max_budget_cents = budget;
    void act(async () => {
      const made = await must(api.POST('/keys', { body: body as never }));
      onMinted(made.secret);
      form.reset();
      return `Minted key ${made.id}.`;
    });
  };
  return html`<form class="inline" id="mint" onSubmit=${submit} aria-label="Mint a key">
    <label>Name<input name="name" required /></label>
    <label>Group<input name="group" /></label>
    <label>Pools (comma-separated; * for all)<input name="allowed_pools" value="*" required /></label>
    <label>RPM limit<input name="rpm_limit" type="number" min="0" /></label>
    <label>Budget (cents)<input name="max_budget_cents" type="number" min="0" /></label>
    <button type="submit">Mint key</button>
  </form><${Outcome} done=${done} failed=${failed} />`;
}

export function Keys() {
  const canWrite = useCanWrite();
  const [cursors, setCursors] = useState<Array<string | undefined>>([undefined]);
  const [secret, setSecret] = useState<string | null>(null);
  const cursor = cursors[cursors.length - 1];
  const { data, error, reload } = useLoad(() => must(api.GET('/keys', { params: { query: { limit: PAGE_SIZE, cursor } } })), [cursor]);
  const money = useLoad(currency, []).data ?? 'USD';
  return html`<section aria-labelledby="keys-title">
    <h1 id="keys-title">Keys</h1>
    ${
      canWrite
        ? html`<h2>Mint a key</h2><${MintForm} onMinted=${(s: string) => {
            setSecret(s);
            reload();
          }} />`
        : null
    }
    ${secret !== null ? html`<${SecretOnce} secret=${secret} onDone=${() => setSecret(null)} />` : null}
    <${ErrorNotice} error=${error} />
    <div class="table-wrap" tabindex="0" role="region" aria-label="Scrollable table"><table id="keys">
      <thead><tr><th scope="col">Id</th><th scope="col">Name</th><th scope="col">Group</th><th scope="col">Enabled</th><th scope="col">Budget</th><th scope="col">RPM</th><th scope="col">Created</th></tr></thead>
      <tbody>
        ${(data?.items ?? []).map(
          (k) => html`<tr data-key=${k.id}>
          <td><a href=${`#/keys/${encodeURIComponent(k.id)}`}>${k.id}</a></td><td>${k.name}</td><td>${k.group ?? '—'}</td>
          <td>${k.enabled ? 'yes' : 'no'}</td><td>${cents(k.max_budget_cents, money)} ${k.budget_period}</td><td class="num">${n(k.rpm_limit)}</td><td>${when(k.created_at)}</td>
        </tr>`,
        )}
      </tbody>
    </table></div>
    <div class="row">
      <button class="secondary" type="button" disabled=${cursors.length === 1} onClick=${() => setCursors(cursors.slice(0, -1))}>Previous page</button>
      <button class="secondary" type="button" disabled=${!data?.next_cursor} onClick=${() => setCursors([...cursors, data!.next_cursor!])}>Next page</button>
    </div>
  </section>`;
}

function Metering({ id, budgetCents, money }: { id: string; budgetCents: number | null; money: string }) {
  const { data, error } = useLoad(() => must(api.GET('/keys/{id}/usage', { params: { path: { id } } })), [id], 3000);
  if (data === null) return html`<${ErrorNotice} error=${error} />`;
  return html`<dl class="facts" id="metering">
    <dt>Period</dt><dd>${data.budget_period ?? 'no counters yet'} from ${when(data.window_start)}</dd>
    <dt>Requests</dt><dd id="key-requests">${n(data.requests)}</dd>
    <dt>Tokens</dt><dd>${n(data.tokens)} tokens</dd>
    <dt>Spend</dt><dd>${cents(data.spend_cents, money)}</dd>
    <dt>Budget headroom</dt><dd id="budget-headroom">${
      budgetCents === null
        ? 'uncapped'
        : html`<meter min="0" max=${budgetCents} value=${Math.max(0, budgetCents - data.spend_cents)} aria-label="budget headroom"></meter> ${cents(Math.max(0, budgetCents - data.spend_cents), money)} of ${cents(budgetCents, money)} left`
    }</dd>
    <dt>Rate headroom</dt><dd>${data.rate_headroom === null ? 'uncapped' : html`<meter min="0" max="1" value=${data.rate_headroom} aria-label="rate headroom"></meter> ${Math.round(data.rate_headroom * 100)} %`}</dd>
    <dt>As of</dt><dd>${when(data.as_of)}</dd>
  </dl>`;
}

/**
 * The form's inputs are uncontrolled (defaultValue): a re-render while the operator types (the
 * currency arriving, a refresh) must not put the stored values back. The form is made anew,
 * from the stored values, when they change (after a save).
 */
function formKey(k: { name: string; rpm_limit: number | null; tpm_limit: number | null; enabled: boolean }): string {
  return JSON.stringify([k.name, k.rpm_limit, k.tpm_limit, k.enabled]);
}

export function KeyDetail({ id }: { id: string }) {
  const canWrite = useCanWrite();
  const { data, error, reload } = useLoad(() => must(api.GET('/keys/{id}', { params: { path: { id } } })), [id]);
  const money = useLoad(currency, []).data ?? 'USD';
  const [secret, setSecret] = useState<string | null>(null);
  const [done, failed, act] = useAction();
  const path = { params: { path: { id } } };
  const patch = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const enabled = (form.elements.namedItem('enabled') as HTMLInputElement).checked;
    void act(async () => {
      await must(
        api.PATCH('/keys/{id}', {
          ...path,
          body: { name: text(form, 'name'), rpm_limit: optionalInt(form, 'rpm_limit'), tpm_limit: optionalInt(form, 'tpm_limit'), enabled },
        }),
      );
      reload();
      return 'Saved.';
    });
  };
  const rotate = () =>
    act(async () => {
      const rotated = await must(api.POST('/keys/{id}/rotate', path));
      setSecret(rotated.secret);
      reload();
      return 'Rotated: the old secret no longer works.';
    });
  const revoke = () => {
    if (!confirm(`Revoke key ${id}? Its next request is refused.`)) return;
    void act(async () => {
      await must(api.DELETE('/keys/{id}', path));
      reload();
      return 'Revoked.';
    });
  };
  return html`<section aria-labelledby="key-title">
    <p><a href="#/keys">All keys</a></p>
    <h1 id="key-title">Key ${id}</h1>
    <${ErrorNotice} error=${error} />
    ${secret !== null ? html`<${SecretOnce} secret=${secret} onDone=${() => setSecret(null)} />` : null}
    ${
      data === null
        ? null
        : html`<dl class="facts">
      <dt>Name</dt><dd>${data.name}</dd><dt>Group</dt><dd>${data.group ?? '—'}</dd><dt>Enabled</dt><dd id="key-enabled">${data.enabled ? 'yes' : 'no'}</dd>
      <dt>Pools</dt><dd>${data.allowed_pools.length === 0 ? 'all' : data.allowed_pools.join(', ')}</dd>
      <dt>Budget</dt><dd>${cents(data.max_budget_cents, money)} ${data.budget_period}</dd>
      <dt>Limits</dt><dd>${n(data.rpm_limit)} requests/min, ${n(data.tpm_limit)} tokens/min</dd>
      <dt>Expires</dt><dd>${when(data.expires_at)}</dd>
    </dl>`
    }
    <h2>Metering</h2>
    ${data === null ? null : html`<${Metering} id=${id} budgetCents=${data.max_budget_cents} money=${money} />`}
    ${
      canWrite && data !== null
        ? html`<h2>Change</h2>
      <form class="inline" onSubmit=${patch} aria-label="Change the key" key=${formKey(data)}>
        <label>Name<input name="name" defaultValue=${data.name} required /></label>
        <label>RPM limit<input name="rpm_limit" type="number" min="0" defaultValue=${data.rpm_limit ?? ''} /></label>
        <label>TPM limit<input name="tpm_limit" type="number" min="0" defaultValue=${data.tpm_limit ?? ''} /></label>
        <label>Enabled<input name="enabled" type="checkbox" defaultChecked=${data.enabled} /></label>
        <button type="submit">Save</button>
      </form>
      <div class="row">
        <button id="rotate" class="secondary" type="button" onClick=${rotate}>Rotate secret</button>
        <button id="revoke" class="danger" type="button" onClick=${revoke}>Revoke</button>
      </div>`
        : null
    }
    <${Outcome} done=${done} failed=${failed} />
  </section>`;
}
