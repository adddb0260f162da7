// Property-based fuzzing of the admin API's request bodies (issue 15), against a running
// gateway: every body-taking route that changes nothing outside the gateway (keys, groups,
// config validation, which runs the whole config loader on the document). Properties: never a
// 500, an error is the admin shape `{ error: { code, message } }`, no configured secret in any
// answer. Routes that reach out (hooks) or change who may call (admin-auth, restart) are left
// out: a fuzzer must not lock itself out or make the gateway call random addresses.
import fc from 'fast-check';
import { Agent, request } from 'undici';
import { jsonish, type FuzzProperty } from './codec-properties.js';

export interface AdminTarget {
  adminUrl: string;
  secrets: readonly string[];
}

const FIELDS = [
  'name',
  'group',
  'allowed_pools',
  'max_budget_cents',
  'budget_period',
  'rpm_limit',
  'tpm_limit',
  'ttl',
  'issue_aws_credential',
  'enabled',
  'parent',
  'per_request_fee_micros',
  'rate_card',
  'limits',
  'child_default',
  'metric',
  'window',
  'max',
  'model',
  'tier',
  'config',
  'models',
  'pools',
  'providers_file',
  'listen',
  'auth',
  'chain',
  'security',
  'hooks',
  'logs',
  'advanced',
  'members',
  'provider',
  'upstream_model',
  'max_concurrent',
];

function mutated(seed: () => Record<string, unknown>): fc.Arbitrary<unknown> {
  const edit = fc.record({ field: fc.constantFrom(...FIELDS), value: jsonish, drop: fc.boolean(), deep: fc.boolean() });
  return fc.array(edit, { maxLength: 3 }).map((edits) => {
    const body = seed() as Record<string, any>;
    for (const e of edits) {
      const inner = Object.values(body).find((v) => v !== null && typeof v === 'object' && !Array.isArray(v)) as Record<string, unknown> | undefined;
      const target = e.deep && inner !== undefined ? inner : body;
      if (e.drop) delete target[e.field];
      else target[e.field] = e.value;
    }
    return body;
  });
}

const ROUTES: Array<{ method: 'POST' | 'PATCH'; path: string; seed: () => Record<string, unknown> }> = [
  { method: 'POST', path: '/keys', seed: () => ({ name: 'fuzz', allowed_pools: ['*'], rpm_limit: 10, ttl: '1h' }) },
  { method: 'PATCH', path: '/keys/key_does_not_exist', seed: () => ({ enabled: true, rpm_limit: 5 }) },
  { method: 'POST', path: '/groups', seed: () => ({ name: 'fuzz-group', limits: [{ metric: 'requests', window: 'minute', max: 10 }] }) },
  { method: 'PATCH', path: '/groups/fuzz-missing', seed: () => ({ enabled: false }) },
  {
    method: 'POST',
    path: '/config/validate',
    seed: () => ({
      config: {
        models: { m: { provider: 'mock-openai', upstream_model: 'x' } },
        pools: { default: { members: [{ model: 'm' }] } },
        auth: { chain: [] },
        security: { allow_metadata_hosts: [] },
      },
    }),
  },
];

const agent = new Agent({ connections: 4, headersTimeout: 30_000, bodyTimeout: 30_000 });

export function adminProperties(target: AdminTarget): FuzzProperty[] {
  return ROUTES.map((route) => ({
    name: `admin ${route.method} ${route.path}: any body gets a 2xx or an admin error, never a 500, no secret`,
    property: fc.asyncProperty(
      fc.oneof(
        { arbitrary: mutated(route.seed).map((b) => Buffer.from(JSON.stringify(b))), weight: 4 },
        { arbitrary: jsonish.map((b) => Buffer.from(JSON.stringify(b) ?? 'null')), weight: 2 },
        {
          arbitrary: fc.tuple(mutated(route.seed), fc.nat()).map(([b, cut]) => {
            const t = Buffer.from(JSON.stringify(b));
            return t.subarray(0, cut % (t.length + 1));
          }),
          weight: 1,
        },
        { arbitrary: fc.uint8Array({ maxLength: 64 }).map((u) => Buffer.from(u)), weight: 1 },
      ),
      fc.constantFrom('application/json', 'text/plain', ''),
      async (body, contentType) => {
        const headers: Record<string, string> = contentType === '' ? {} : { 'content-type': contentType };
        const res = await request(`${target.adminUrl}${route.path}`, { method: route.method, body, headers, dispatcher: agent });
        const text = await res.body.text();
        const where = `${route.method} ${route.path} -> ${res.statusCode}`;
        if (res.statusCode >= 500) throw new Error(`${where}: ${text.slice(0, 300)}`);
        for (const secret of target.secrets) if (text.includes(secret)) throw new Error(`${where}: the answer carries a configured secret`);
        if (res.statusCode >= 400) {
          const doc = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
          if (typeof doc.error?.code !== 'string' || typeof doc.error.message !== 'string')
            throw new Error(`${where}: not an admin error: ${text.slice(0, 200)}`);
        } else if (text !== '') JSON.parse(text);
      },
    ),
  }));
}

export async function closeAdminAgent(): Promise<void> {
  await agent.close();
}
