// The admin console (issue 49): a single page over the admin API, one hash route per view
// (`#/pools`, `#/keys/<id>`...) so every view is a URL an operator can share. The credential is
// typed into the sign-in form and kept in memory only: a reload signs out.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, must, setCredential } from './api.js';
import { html, SessionContext, ErrorNotice, type Principal } from './ui.js';
import { Overview } from './views/overview.js';
import { Pools } from './views/pools.js';
import { Keys, KeyDetail } from './views/keys.js';
import { Groups } from './views/groups.js';
import { Usage } from './views/usage.js';
import { Audit } from './views/audit.js';
import { Config } from './views/config.js';
import { Hooks } from './views/hooks.js';

const VIEWS: Array<{ path: string; title: string }> = [
  { path: 'overview', title: 'Overview' },
  { path: 'pools', title: 'Pools and lanes' },
  { path: 'keys', title: 'Keys' },
  { path: 'groups', title: 'Groups' },
  { path: 'usage', title: 'Usage' },
  { path: 'audit', title: 'Audit' },
  { path: 'config', title: 'Config' },
  { path: 'hooks', title: 'Hooks' },
];

function currentRoute(): string[] {
  const parts = location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  return parts[0] === '' ? ['overview'] : parts;
}

function View({ route }: { route: string[] }) {
  const [name, arg] = route;
  switch (name) {
    case 'overview':
      return html`<${Overview} />`;
    case 'pools':
      return html`<${Pools} />`;
    case 'keys':
      return arg === undefined ? html`<${Keys} />` : html`<${KeyDetail} id=${arg} />`;
    case 'groups':
      return html`<${Groups} />`;
    case 'usage':
      return html`<${Usage} />`;
    case 'audit':
      return html`<${Audit} />`;
    case 'config':
      return html`<${Config} />`;
    case 'hooks':
      return html`<${Hooks} />`;
    default:
      return html`<p>No such view. <a href="#/overview">Overview</a></p>`;
  }
}

function SignIn({ onSignedIn }: { onSignedIn: (p: Principal) => void }) {
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    const input = (event.currentTarget as HTMLFormElement).elements.namedItem('token') as HTMLInputElement;
    setCredential(input.value.trim());
    input.value = '';
    try {
      onSignedIn(await must(api.GET('/whoami')));
    } catch (err) {
      setCredential('');
      setError(err instanceof ApiError && err.status === 401 ? `Not signed in: ${err.message}` : (err as Error).message);
    }
  };
  return html`<main class="signin">
    <h1>Gateway console</h1>
    <form onSubmit=${submit}>
      <p><label>Admin token or identity-provider token
        <input id="token" name="token" type="password" autocomplete="off" required /></label></p>
      <p><button id="sign-in" type="submit">Sign in</button></p>
    </form>
    <${ErrorNotice} error=${error} />
    <p class="muted">The token stays in this page's memory only: reloading signs out.</p>
  </main>`;
}

function App() {
  const [principal, setPrincipal] = useState<Principal | null>(null);
  const [route, setRoute] = useState(currentRoute());
  useEffect(() => {
    const onHash = () => setRoute(currentRoute());
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);
  useEffect(() => {
    const view = VIEWS.find((v) => v.path === route[0]);
    document.title = `${view?.title ?? 'Console'} · Gateway console`;
    // Keyboard and screen-reader users land on the new view, not on the link they left.
    document.getElementById('content')?.focus();
  }, [route]);
  if (principal === null) return html`<${SignIn} onSignedIn=${setPrincipal} />`;
  const signOut = () => {
    setCredential('');
    setPrincipal(null);
  };
  return html`<${SessionContext.Provider} value=${principal}>
    <div class="layout">
      <nav class="side" aria-label="Views">
        <ul>
          ${VIEWS.map((v) => html`<li><a href=${`#/${v.path}`} aria-current=${route[0] === v.path ? 'page' : undefined}>${v.title}</a></li>`)}
        </ul>
      </nav>
      <main id="content" tabindex="-1">
        <header class="top">
          <span id="principal">Signed in as <strong>${principal.id}</strong> (${principal.scope})</span>
          <button class="secondary" type="button" onClick=${signOut}>Sign out</button>
        </header>
        <${View} route=${route} />
      </main>
    </div>
  <//>`;
}

const root = document.getElementById('app')!;
root.textContent = '';
render(html`<${App} />`, root);
