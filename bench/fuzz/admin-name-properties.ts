// Property-based fuzzing of the names that reach the audit chain (issue 46), against a running
// gateway with a mutable config: hostile names (with "|", control characters, huge strings,
// any unicode) for a group (POST /groups), a hook (POST /hooks, a socket in a private folder,
// so registering calls nothing) and the path names of PATCH/DELETE on keys, groups and hooks.
// Properties: never a 500; a name with "|" or a control character is always refused (400); a
// name that was accepted is deleted again (the gateway does not grow over a long run); and the
// newest audit entries still verify: hash = sha256(chain_prev_hash|seq|ts|action|resource|
// outcome|principal), each prev_hash the previous hash, no "|" or control character in resource
// or principal, resource at most 256 characters. Plus nested and wide bodies past the JSON
// limits: 400 before they are parsed.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { Agent, request } from 'undici';
import type { FuzzProperty } from './codec-properties.js';

export interface AdminNameTarget {
  adminUrl: string;
  /** A folder of the fuzz run's own: hook sockets point there (nothing listens). */
  socketDir: string;
}

const FORBIDDEN = /[|\u0000-\u001f\u007f-\u009f]/;

/** Names as an attacker would send them. */
const hostileName: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.string({ minLength: 1, maxLength: 40 }), weight: 3 },
  { arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }), weight: 2 },
  {
    arbitrary: fc
      .tuple(
        fc.string({ maxLength: 12 }),
        fc.constantFrom('|', '\n', '\r', '\t', '\u0000', '\u001b', '\u007f', '\u0085', '|applied', '|rejected|admin'),
        fc.string({ maxLength: 12 }),
      )
      .map(([a, bad, b]) => `${a}${bad}${b}`),
    weight: 4,
  },
  { arbitrary: fc.constantFrom(129, 4096, 65_536, 1 << 20, 7 << 20).map((n) => 'n'.repeat(n)), weight: 1 },
  {
    arbitrary: fc.constantFrom(
      'ops|rejected',
      'weighted',
      'a/b',
      '..',
      '%7C',
      'user:auth0|1',
      ' ',
      'valueOf',
      'toString',
      'constructor',
      '__proto__',
      'hasOwnProperty',
    ),
    weight: 1,
  },
);

const agent = new Agent({ connections: 4, headersTimeout: 60_000, bodyTimeout: 60_000 });

interface Answer {
  status: number;
  text: string;
}

async function call(method: string, url: string, body?: unknown): Promise<Answer> {
  const res = await request(url, {
    method: method as 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: typeof body === 'string' || body instanceof Buffer ? body : JSON.stringify(body) }),
    dispatcher: agent,
  });
  return { status: res.statusCode, text: await res.body.text() };
}

function adminShape(where: string, a: Answer): void {
  if (a.status >= 500) throw new Error(`${where} -> ${a.status}: ${a.text.slice(0, 300)}`);
  if (a.status >= 400) {
    const doc = JSON.parse(a.text) as { error?: { code?: unknown; message?: unknown } };
    if (typeof doc.error?.code !== 'string' || typeof doc.error.message !== 'string') throw new Error(`${where}: not an admin error: ${a.text.slice(0, 200)}`);
  }
}

type Shown = {
  seq: number;
  ts: number;
  action: string;
  resource: string;
  outcome: string;
  principal: string;
  prev_hash: string;
  hash: string;
  chain_prev_hash: string;
};

/** The newest audit entries, checked as a reader of GET /audit would: every hash by the spec's formula, every link, every field. */
async function auditVerifies(adminUrl: string): Promise<void> {
  const page = await call('GET', `${adminUrl}/audit?limit=20`);
  const items = (JSON.parse(page.text) as { items: Shown[] }).items.reverse();
  for (const [i, e] of items.entries()) {
    const expected = createHash('sha256').update(`${e.chain_prev_hash}|${e.seq}|${e.ts}|${e.action}|${e.resource}|${e.outcome}|${e.principal}`).digest('hex');
    if (e.hash !== expected) throw new Error(`audit seq ${e.seq} does not verify`);
    if (i > 0 && e.prev_hash !== items[i - 1]!.hash) throw new Error(`audit seq ${e.seq} does not link to seq ${items[i - 1]!.seq}`);
    if (FORBIDDEN.test(e.resource) || FORBIDDEN.test(e.principal))
      throw new Error(`audit seq ${e.seq} holds "|" or a control character: ${JSON.stringify(e.resource.slice(0, 80))}`);
    if (e.resource.length > 256) throw new Error(`audit seq ${e.seq}: resource of ${e.resource.length} chars`);
    if (e.outcome !== 'applied' && e.outcome !== 'rejected') throw new Error(`audit seq ${e.seq}: outcome ${e.outcome}`);
  }
}

/** A 2xx or an admin 4xx; a name with "|" or a control character refused. */
function judged(where: string, name: string, a: Answer): void {
  adminShape(where, a);
  if (FORBIDDEN.test(name) && a.status < 400) throw new Error(`${where}: a name with "|" or a control character was accepted (${a.status})`);
}

export function adminNameProperties(target: AdminNameTarget): FuzzProperty[] {
  const { adminUrl } = target;
  const path = (name: string) => encodeURIComponent(name);
  return [
    {
      name: 'admin names: POST /groups with any name: refused with "|" or control characters, never a 500; the audit still verifies',
      property: fc.asyncProperty(hostileName, async (name) => {
        const a = await call('POST', `${adminUrl}/groups`, { name });
        judged(`POST /groups ${JSON.stringify(name.slice(0, 40))}`, name, a);
        if (a.status === 201) adminShape('DELETE /groups', await call('DELETE', `${adminUrl}/groups/${path(name)}`));
        await auditVerifies(adminUrl);
      }),
    },
    {
      name: 'admin names: POST /hooks with any name: refused with "|" or control characters, never a 500; the audit still verifies',
      property: fc.asyncProperty(hostileName, fc.constantFrom('tap', 'gate'), async (name, kind) => {
        const a = await call('POST', `${adminUrl}/hooks`, { name, kind, socket: `${target.socketDir}/none.sock` });
        judged(`POST /hooks ${JSON.stringify(name.slice(0, 40))}`, name, a);
        if (a.status === 201) adminShape('DELETE /hooks', await call('DELETE', `${adminUrl}/hooks/${path(name)}`));
        await auditVerifies(adminUrl);
      }),
    },
    {
      name: 'admin names: PATCH/DELETE on keys, groups and hooks by any path name: never a 500, "|" refused; the audit still verifies',
      property: fc.asyncProperty(
        hostileName.filter((n) => n.length < 4096),
        fc.constantFrom('keys', 'groups', 'hooks'),
        fc.boolean(),
        async (name, noun, patch) => {
          const url = `${adminUrl}/${noun}/${path(name)}${patch && noun === 'hooks' ? '/settings' : ''}`;
          const body = patch ? (noun === 'hooks' ? { settings: {} } : { enabled: true }) : undefined;
          const a = await call(patch ? 'PATCH' : 'DELETE', url, body);
          judged(`${patch ? 'PATCH' : 'DELETE'} /${noun}/${JSON.stringify(name.slice(0, 40))}`, name, a);
          await auditVerifies(adminUrl);
        },
      ),
    },
    {
      name: 'admin bodies past the JSON limits (depth, members) are 400 before they are parsed',
      property: fc.asyncProperty(fc.integer({ min: 65, max: 200_000 }), fc.boolean(), async (n, deep) => {
        const body = deep ? `{"name":${'['.repeat(n)}${']'.repeat(n)}}` : `{"name":"x","allowed_pools":[${Array(Math.max(100_001, n)).fill('"p"').join(',')}]}`;
        const a = await call('POST', `${adminUrl}/keys`, body);
        adminShape('POST /keys (JSON limits)', a);
        if (a.status !== 400 || !/max_json_(depth|members)/.test(a.text))
          throw new Error(`POST /keys with a body past the JSON limits -> ${a.status}: ${a.text.slice(0, 200)}`);
      }),
    },
  ];
}

export async function closeAdminNameAgent(): Promise<void> {
  await agent.close();
}
