// The console's only way to the gateway: openapi-fetch over the types generated from
// docs/openapi.json (scripts/build-openapi.mjs), with the admin credential from memory (never
// written to storage, a cookie or the URL) sent as `x-admin-token` on every call.
import createClient from 'openapi-fetch';
import type { components, paths } from './generated/admin-api.js';

export type Schemas = components['schemas'];

let credential = '';

export function setCredential(token: string): void {
  credential = token;
}

export const api = createClient<paths>({
  baseUrl: '/api/v1/admin',
  fetch: (input, init) => {
    const headers = new Headers(init?.headers);
    if (credential !== '') headers.set('x-admin-token', credential);
    return fetch(input, { ...init, headers, credentials: 'omit', cache: 'no-store' });
  },
});

/** An admin refusal, with the server's own message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The data of a call, or an ApiError carrying the error envelope's message. */
export async function must<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (error !== undefined || data === undefined) {
    const message = (error as { error?: { message?: string } } | undefined)?.error?.message ?? `HTTP ${response.status}`;
    throw new ApiError(response.status, message);
  }
  return data;
}
