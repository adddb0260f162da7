// The hosted sign-in page's HTML: plain markup and a little CSS, no framework. Every page is
// served under a strict Content-Security-Policy: nothing loads from anywhere, the one style
// block and the one script (the copy button) run only by this response's nonce, and forms may
// post only back here. Every value put in the page is escaped.
import { randomBytes } from 'node:crypto';

export interface PageAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const STYLE = `
body { font: 15px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem; color: #1b1f24; }
h1 { font-size: 1.4rem; }
code, .secret { font-family: ui-monospace, monospace; background: #f3f4f6; padding: .15rem .35rem; border-radius: 4px; word-break: break-all; }
.secret { display: block; padding: .75rem; margin: .5rem 0; }
a.provider, button { display: inline-block; margin: .25rem 0; padding: .5rem 1rem; border: 1px solid #8c959f; border-radius: 6px; background: #fff; color: inherit; text-decoration: none; cursor: pointer; font: inherit; }
.note { color: #57606a; font-size: .9rem; }
.error { color: #a40e26; }
`;

const COPY_SCRIPT = `
document.getElementById('copy').addEventListener('click', function () {
  var key = document.getElementById('key').textContent;
  navigator.clipboard.writeText(key).then(function () { document.getElementById('copy').textContent = 'Copied'; });
});
`;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function page(status: number, title: string, main: string, script = false): PageAnswer {
  const nonce = randomBytes(16).toString('base64');
  const csp = [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    script ? `script-src 'nonce-${nonce}'` : "script-src 'none'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  const body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${escapeHtml(title)}</title><style nonce="${nonce}">${STYLE}</style></head>
<body><h1>${escapeHtml(title)}</h1>
${main}
${script ? `<script nonce="${nonce}">${COPY_SCRIPT}</script>` : ''}
</body></html>
`;
  return {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': csp,
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
    },
    body,
  };
}

export function chooserPage(providers: string[]): PageAnswer {
  const links = providers
    .map((p) => `<li><a class="provider" href="/auth/token?provider=${encodeURIComponent(p)}">Sign in with ${escapeHtml(p)}</a></li>`)
    .join('\n');
  return page(200, 'Sign in to the gateway', `<p>Choose your identity provider:</p><ul id="providers">${links}</ul>`);
}

export function resultPage(key: string, baseUrl: string, expiresAt: number, group: string | null, ticket: string): PageAnswer {
  const expires = new Date(expiresAt * 1000).toISOString();
  return page(
    200,
    'Your gateway key',
    `<p>This key is shown once on this page; keep it like a password.</p>
<code class="secret" id="key">${escapeHtml(key)}</code>
<button type="button" id="copy">Copy</button>
<p>Base URL: <code id="base-url">${escapeHtml(baseUrl)}</code></p>
<p class="note">Group <code>${escapeHtml(group ?? '-')}</code>; expires ${escapeHtml(expires)}.</p>
<form method="post" action="/auth/token"><input type="hidden" name="ticket" value="${escapeHtml(ticket)}">
<button type="submit" id="refresh">Refresh (new key; the old one stops working)</button></form>`,
    true,
  );
}

export function errorPage(status: number, message: string): PageAnswer {
  return page(status, 'Sign-in failed', `<p class="error" id="error">${escapeHtml(message)}</p><p><a class="provider" href="/auth/token">Start again</a></p>`);
}

export function redirect(location: string): PageAnswer {
  return { status: 302, headers: { location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' }, body: '' };
}
