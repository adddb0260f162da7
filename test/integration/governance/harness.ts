// What the governance tests share: a gateway with `auth.chain: [keys]` and a fresh ed25519
// signing key, an admin client that keeps every admin answer, and the witness that checks no
// minted secret ever shows up in an admin answer (other than its own mint/rotate) or a log line.
// Every admin call goes through the typed admin client, which contract-checks each answer.
import { generateKeyPairSync } from 'node:crypto';
import { rmSync } from 'node:fs';
import assert from 'node:assert/strict';
import { adminClient, type AdminClient } from '../../helpers/admin-client.js';
import { startGateway, writeConfig, type GatewayFiles, type RunningGateway } from '../../helpers/gateway.js';
import { stackConfig } from '../../helpers/clients/stack.js';

function signingKeyPem(): string {
  return generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

interface AdminAnswer {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  headers: Record<string, string | string[] | undefined>;
}

/** Secrets the tests minted, and every text they must never appear in. */
export class SecretWitness {
  private readonly secrets = new Set<string>();
  private readonly texts: string[] = [];

  minted(...secrets: Array<string | null | undefined>): void {
    for (const s of secrets) if (typeof s === 'string' && s !== '') this.secrets.add(s);
  }

  saw(text: string): void {
    this.texts.push(text);
  }

  get count(): number {
    return this.secrets.size;
  }

  /** No secret in any admin answer kept by saw() nor in `logs`. */
  check(logs: string): void {
    const all = [...this.texts, logs];
    for (const secret of this.secrets) {
      for (const text of all) assert.ok(!text.includes(secret), `a minted secret appeared in: ${text.slice(0, 200)}`);
    }
  }
}

/**
 * The governance tests' admin calls, made through the typed admin client (test/helpers/
 * admin-client.ts): every answer is checked against docs/openapi.json (status and body
 * schema) and scanned for every secret minted so far; the witness also keeps each answer to
 * check against the gateway's logs at the end.
 */
class Admin {
  /** The typed client itself, for calls that want its path and body types. */
  readonly client: AdminClient;

  constructor(
    gw: RunningGateway,
    private readonly witness: SecretWitness,
  ) {
    this.client = adminClient(gw.adminUrl);
  }

  async call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<AdminAnswer> {
    // The path is built at run time (ids, query strings), so it bypasses the client's path
    // typing; the contract check on the answer is what holds it to the document.
    const init = (body === undefined ? {} : { body }) as never;
    const c = this.client;
    const route = path as never;
    const { response } =
      method === 'GET'
        ? await c.GET(route, init)
        : method === 'POST'
          ? await c.POST(route, init)
          : method === 'PATCH'
            ? await c.PATCH(route, init)
            : await c.DELETE(route, init);
    const text = await response.text();
    const parsed = text === '' ? null : JSON.parse(text);
    // Mint and rotate answers carry their secret once, by design; everything else is scanned.
    const carriesSecret = (method === 'POST' && path === '/keys') || (method === 'POST' && path.endsWith('/rotate'));
    if (carriesSecret && parsed !== null) {
      for (const secret of [parsed.secret, parsed.aws_secret_access_key]) {
        if (typeof secret === 'string' && secret !== '') this.client.addSecret(secret);
      }
      this.witness.minted(parsed.secret, parsed.aws_secret_access_key);
      const { secret: _s, aws_secret_access_key: _a, ...rest } = parsed as Record<string, unknown>;
      this.witness.saw(JSON.stringify(rest));
    } else {
      this.witness.saw(text);
    }
    return { status: response.status, body: parsed, headers: Object.fromEntries(response.headers) };
  }

  async ok(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<any> {
    // eslint-disable-line @typescript-eslint/no-explicit-any
    const a = await this.call(method, path, body);
    assert.ok(a.status >= 200 && a.status < 300, `${method} ${path}: ${a.status} ${JSON.stringify(a.body)}`);
    return a.body;
  }

  mint(body: Record<string, unknown>): Promise<{ id: string; secret: string; aws_access_key_id?: string; aws_secret_access_key?: string }> {
    return this.ok('POST', '/keys', { allowed_pools: ['*'], ...body });
  }
}

export interface Governed {
  gw: RunningGateway;
  admin: Admin;
  files: GatewayFiles;
}

/** Stop the gateway, check the witness against its logs, remove its temp folder. */
export async function stopGoverned(g: Governed | undefined, witness: SecretWitness): Promise<void> {
  if (g === undefined) return;
  await g.gw.stop();
  witness.check(g.gw.logs());
  rmSync(g.files.dir, { recursive: true, force: true });
}

/** A gateway on `mockUrl` with `chain: [keys]`, the open admin posture and `over` merged in. */
export async function startGoverned(
  mockUrl: string,
  witness: SecretWitness,
  opts: {
    over?: Record<string, unknown>;
    workers?: number;
    extraProviders?: Record<string, unknown>;
    extraModels?: Record<string, unknown>;
    extraPools?: Record<string, unknown>;
    files?: GatewayFiles;
  } = {},
): Promise<Governed> {
  let files = opts.files;
  if (files === undefined) {
    const { config, providers } = stackConfig(mockUrl, {
      over: { auth: { chain: ['keys'], admin_auth: [], upstream_credentials: 'own', signing_key: { env: 'GW_TEST_SIGNING_KEY' } }, ...opts.over },
      ...(opts.extraProviders === undefined ? {} : { extraProviders: opts.extraProviders }),
      ...(opts.extraModels === undefined ? {} : { extraModels: opts.extraModels }),
      ...(opts.extraPools === undefined ? {} : { extraPools: opts.extraPools }),
    });
    files = writeConfig(config, providers);
  }
  const gw = await startGateway(files, { workers: opts.workers ?? 2, env: { GW_TEST_SIGNING_KEY: SIGNING_KEY } });
  return { gw, admin: new Admin(gw, witness), files };
}

/** One signing key per test process, so a restarted gateway verifies the keys it minted. */
export const SIGNING_KEY = signingKeyPem();
