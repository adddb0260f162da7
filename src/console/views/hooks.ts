// Hooks: the definitions, each hook's health and status (with drift), and its settings form
// drawn from the hook's JSON Schema, sent with PATCH.
import { api, must, type Schemas } from '../api.js';
import { html, useLoad, useAction, useCanWrite, ErrorNotice, Outcome } from '../ui.js';

type Hook = Schemas['HookView'];
interface PropertySchema {
  type?: string;
  description?: string;
  enum?: unknown[];
}

function parseJson(name: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${name}: not valid JSON`);
  }
}

function SettingsForm({ hook, schema, onSaved }: { hook: Hook; schema: Record<string, unknown>; onSaved: () => void }) {
  const [done, failed, act] = useAction();
  const properties = (schema.properties ?? {}) as Record<string, PropertySchema>;
  const submit = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const settings: Record<string, unknown> = {};
    for (const [name, prop] of Object.entries(properties)) {
      const input = form.elements.namedItem(name) as HTMLInputElement;
      if (prop.type === 'boolean') settings[name] = input.checked;
      else if (input.value === '') continue;
      else if (prop.type === 'array' || prop.type === 'object')
        continue; // parsed inside the action, so a bad one is reported
      else settings[name] = prop.type === 'integer' || prop.type === 'number' ? Number(input.value) : input.value;
    }
    void act(async () => {
      for (const [name, prop] of Object.entries(properties)) {
        const input = form.elements.namedItem(name) as HTMLInputElement;
        if ((prop.type === 'array' || prop.type === 'object') && input.value !== '') settings[name] = parseJson(name, input.value);
      }
      await must(api.PATCH('/hooks/{name}/settings', { params: { path: { name: hook.name } }, body: { settings } }));
      onSaved();
      return 'Settings saved.';
    });
  };
  return html`<form class="inline" onSubmit=${submit} aria-label=${`Settings of ${hook.name}`} key=${JSON.stringify(hook.settings)}>
    ${Object.entries(properties).map(([name, prop]) => {
      const value = hook.settings[name];
      if (prop.type === 'boolean') return html`<label>${name}<input name=${name} type="checkbox" defaultChecked=${value === true} /></label>`;
      if (prop.enum !== undefined)
        return html`<label>${name}<select name=${name}><option value="">(unset)</option>${prop.enum.map((o) => html`<option selected=${o === value}>${String(o)}</option>`)}</select></label>`;
      if (prop.type === 'array' || prop.type === 'object')
        return html`<label>${name} (JSON)<input name=${name} defaultValue=${value === undefined ? '' : JSON.stringify(value)} /></label>`;
      const numeric = prop.type === 'integer' || prop.type === 'number';
      return html`<label title=${prop.description ?? ''}>${name}<input name=${name} type=${numeric ? 'number' : 'text'} defaultValue=${value === undefined ? '' : String(value)} /></label>`;
    })}
    <button type="submit">Save settings</button>
  </form><${Outcome} done=${done} failed=${failed} />`;
}

function HookCard({ hook }: { hook: Hook }) {
  const canWrite = useCanWrite();
  const path = { params: { path: { name: hook.name } } };
  const { data, error, reload } = useLoad(async () => {
    const [health, status, schema] = await Promise.all([
      must(api.GET('/hooks/{name}/health', path)),
      must(api.GET('/hooks/{name}/status', path)),
      must(api.GET('/hooks/{name}/schema', path)),
    ]);
    return { health, status, schema };
  }, [hook.name]);
  return html`<section aria-labelledby=${`hook-${hook.name}`}>
    <h2 id=${`hook-${hook.name}`}>${hook.name}</h2>
    <dl class="facts">
      <dt>Kind</dt><dd>${hook.kind}${hook.at === null ? '' : ` at ${hook.at}`}${hook.global ? ', global' : ''}</dd>
      <dt>Transport</dt><dd>${hook.transport.kind} ${hook.transport.target ?? ''}</dd>
      <dt>On error</dt><dd>${hook.on_error}, timeout ${hook.timeout_ms} ms</dd>
      <dt>Reachable</dt><dd>${data === null ? '…' : data.health.reachable === null ? 'unknown' : data.health.reachable ? 'yes' : html`<span class="bad">no</span>`} ${data?.health.detail ?? ''}</dd>
      <dt>Settings drift</dt><dd>${data === null ? '…' : data.status.drift === null ? 'not reported' : data.status.drift ? html`<span class="bad">drifted</span>` : 'in sync'}</dd>
    </dl>
    <${ErrorNotice} error=${error} />
    ${
      data?.schema.schema && canWrite
        ? html`<${SettingsForm} hook=${hook} schema=${data.schema.schema} onSaved=${reload} />`
        : html`<p class="muted">Settings: <code>${JSON.stringify(hook.settings)}</code></p>`
    }
  </section>`;
}

export function Hooks() {
  const { data, error } = useLoad(() => must(api.GET('/hooks', { params: { query: { limit: 100 } } })), []);
  return html`<section aria-labelledby="hooks-title">
    <h1 id="hooks-title">Hooks</h1>
    <${ErrorNotice} error=${error} />
    ${data !== null && data.items.length === 0 ? html`<p>No hooks configured.</p>` : null}
    ${(data?.items ?? []).map((hook) => html`<${HookCard} hook=${hook} />`)}
  </section>`;
}
