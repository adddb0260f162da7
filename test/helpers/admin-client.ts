// The typed admin client the tests drive the admin API with: openapi-fetch over the types the
// build generates from the OpenAPI document (generated/admin-api.ts), so a route whose
// declaration drifts from what the tests use fails to compile. Every response it receives is
// checked against the document (admin-contract.ts) and scanned for every secret the test
// registered (the admin token, minted secrets...): none may appear in any admin response.
import createClient from 'openapi-fetch';
import type { paths } from './generated/admin-api.js';
import { checkAdminResponse } from './admin-contract.js';
import { registerIssuedSecrets, registerSecret, scanText } from './secret-scan.js';

export type { paths } from './generated/admin-api.js';

export interface AdminClientOptions {
  /** `x-admin-token` header; or `bearer` to send it as Authorization: Bearer. */
  token?: string;
  bearer?: string;
  /** Strings no admin response may contain (the token is always one). */
  secrets?: string[];
}

interface RecordedResponse {
  method: string;
  path: string;
  status: number;
  body: unknown;
}

export function adminClient(adminUrl: string, opts: AdminClientOptions = {}) {
  const secrets = new Set(opts.secrets ?? []);
  for (const s of [opts.token, opts.bearer]) if (s !== undefined && s !== '') secrets.add(s);
  for (const s of secrets) registerSecret(s);
  const received: RecordedResponse[] = [];
  const headers: Record<string, string> = {};
  if (opts.token !== undefined) headers['x-admin-token'] = opts.token;
  if (opts.bearer !== undefined) headers.authorization = `Bearer ${opts.bearer}`;

  const checkedFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const res = await fetch(input, init);
    const text = await res.text();
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const path = url.pathname.replace(/^\/api\/v1\/admin/, '');
    const method = (init?.method ?? 'GET').toUpperCase();
    for (const secret of secrets) {
      if (text.includes(secret)) throw new Error(`an admin response carries a secret: ${method} ${path} ${res.status}`);
    }
    // The run-wide scan too: every secret configured or minted so far, not only this client's.
    scanText(`admin response ${method} ${path} ${res.status}`, text);
    const body: unknown = text === '' ? undefined : JSON.parse(text);
    checkAdminResponse(method, path, res.status, body);
    // A mint or rotate hands a secret out once: from now on no log line or response may carry it.
    registerIssuedSecrets(body);
    received.push({ method, path, status: res.status, body });
    return new Response(text, { status: res.status, headers: res.headers });
  };

  const client = createClient<paths>({ baseUrl: adminUrl, headers, fetch: checkedFetch });
  return Object.assign(client, {
    /** Every response received so far (each already checked). */
    received,
    /** Add a secret the test created (a minted key, a TLS key's text...). */
    addSecret(secret: string): void {
      secrets.add(secret);
      registerSecret(secret);
    },
  });
}

export type AdminClient = ReturnType<typeof adminClient>;
