// Config: the retained versions, a diff of two, rollback, and a pasted document (YAML or
// JSON) validated with every error shown, or applied with expected_version. A locked config
// refuses each change with the server's message, shown as is.
import { useState } from 'preact/hooks';
import { parse } from 'yaml';
import { api, must, type Schemas } from '../api.js';
import { when } from '../format.js';
import { html, useLoad, useAction, useCanWrite, ErrorNotice, Outcome } from '../ui.js';

type Diff = Schemas['ConfigDiffView'];

function pasted(textarea: HTMLTextAreaElement): Record<string, unknown> {
  const doc: unknown = parse(textarea.value);
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw new Error('the document must be a YAML or JSON mapping');
  return doc as Record<string, unknown>;
}

function DiffView({ diff }: { diff: Diff }) {
  const list = (names: string[]) => (names.length === 0 ? 'none' : names.join(', '));
  return html`<dl class="facts" id="diff">
    <dt>Hooks added</dt><dd>${list(diff.hooks.added)}</dd>
    <dt>Hooks removed</dt><dd>${list(diff.hooks.removed)}</dd>
    <dt>Hooks changed</dt><dd>${list(diff.hooks.changed)}</dd>
    <dt>Global hooks</dt><dd>${diff.global_hooks ? `${list(diff.global_hooks.from)} → ${list(diff.global_hooks.to)}` : 'unchanged'}</dd>
  </dl>`;
}

export function Config() {
  const canWrite = useCanWrite();
  const { data, error, reload } = useLoad(async () => {
    const [info, versions] = await Promise.all([must(api.GET('/info')), must(api.GET('/config/versions', { params: { query: { limit: 100 } } }))]);
    return { live: info.config_version, versions: versions.items };
  }, []);
  const [diff, setDiff] = useState<Diff | null>(null);
  const [errors, setErrors] = useState<string[] | null>(null);
  const [done, failed, act] = useAction();
  const versions = data?.versions ?? [];
  const choose = (id: string, fallback: number) => html`<select id=${id} name=${id}>
    ${versions.map((v) => html`<option value=${v.version} selected=${v.version === fallback}>${v.version}</option>`)}
  </select>`;
  const showDiff = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const from = Number((form.elements.namedItem('diff-from') as HTMLSelectElement).value);
    const to = Number((form.elements.namedItem('diff-to') as HTMLSelectElement).value);
    void act(async () => {
      setDiff(await must(api.GET('/config/diff', { params: { query: { from, to } } })));
      return `Diff of ${from} → ${to}.`;
    });
  };
  const rollback = (event: Event) => {
    event.preventDefault();
    const version = Number(((event.currentTarget as HTMLFormElement).elements.namedItem('rollback-to') as HTMLSelectElement).value);
    void act(async () => {
      const back = await must(api.POST('/config/rollback', { body: { version } }));
      reload();
      return `Rolled back to version ${back.restored_version}; the live config is now version ${back.config_version}.`;
    });
  };
  const validateOrApply = (apply: boolean) => () => {
    const textarea = document.getElementById('config-doc') as HTMLTextAreaElement;
    void act(async () => {
      const config = pasted(textarea);
      if (!apply) {
        const verdict = await must(api.POST('/config/validate', { body: { config } }));
        setErrors(verdict.errors);
        return verdict.ok ? 'The document is valid.' : `The document has ${verdict.errors.length} error(s).`;
      }
      setErrors(null);
      const applied = await must(api.POST('/config/apply', { body: { config, expected_version: data?.live } }));
      reload();
      return `Applied: config version ${applied.config_version}. ${applied.note}`;
    });
  };
  const latest = versions[0]?.version ?? 0;
  return html`<section aria-labelledby="config-title">
    <h1 id="config-title">Config</h1>
    <${ErrorNotice} error=${error} />
    <p>Live config version: <strong id="live-version">${data?.live ?? '…'}</strong></p>
    <div class="table-wrap" tabindex="0" role="region" aria-label="Scrollable table"><table id="versions">
      <caption>Retained versions</caption>
      <thead><tr><th scope="col">Version</th><th scope="col">Applied</th><th scope="col">By</th><th scope="col">Summary</th></tr></thead>
      <tbody>${versions.map((v) => html`<tr><td class="num">${v.version}</td><td>${when(v.ts)}</td><td>${v.principal}</td><td>${v.summary}</td></tr>`)}</tbody>
    </table></div>
    <h2>Diff</h2>
    <form class="inline" onSubmit=${showDiff} aria-label="Diff two versions">
      <label>From${choose('diff-from', versions[1]?.version ?? latest)}</label>
      <label>To${choose('diff-to', latest)}</label>
      <button id="show-diff" type="submit">Show diff</button>
    </form>
    ${diff === null ? null : html`<${DiffView} diff=${diff} />`}
    ${
      canWrite
        ? html`<h2>Roll back</h2>
      <form class="inline" onSubmit=${rollback} aria-label="Roll back">
        <label>To version${choose('rollback-to', versions[1]?.version ?? latest)}</label>
        <button id="rollback" class="danger" type="submit">Roll back</button>
      </form>`
        : null
    }
    <h2>Validate${canWrite ? ' or apply' : ''} a document</h2>
    <label>Full deployment config (YAML or JSON)<textarea id="config-doc" spellcheck="false"></textarea></label>
    <div class="row">
      <button id="validate" class="secondary" type="button" onClick=${validateOrApply(false)}>Validate</button>
      ${canWrite ? html`<button id="apply" type="button" onClick=${validateOrApply(true)}>Apply (expects version ${data?.live ?? '…'})</button>` : null}
    </div>
    ${errors !== null && errors.length > 0 ? html`<ul id="validate-errors" class="bad">${errors.map((e) => html`<li>${e}</li>`)}</ul>` : null}
    <${Outcome} done=${done} failed=${failed} />
  </section>`;
}
