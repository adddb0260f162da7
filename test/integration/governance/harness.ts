// What the governance tests share: a gateway with `auth.chain: [keys]` and a fresh ed25519
// signing key, an admin client that keeps every admin answer, and the witness that checks no
// minted secret ever shows up in an admin answer (other than its own mint/rotate) or a log line.
// Every admin call goes through the typed admin client, which contract-checks each answer.
import { generateKeyPairSync } from 'node:crypto';
import { rmSync } from 'node:fs';
import assert from 'node:assert/strict';
import { adminClient, type AdminClient } from '../../helpers/admin-client.js';
import type { MockOptions } from '../../../src/mock/server.js';
import { startGateway, writeConfig, type GatewayFiles, type RunningGateway } from '../../helpers/gateway.js';
import { SuiteStack, stackConfig, type StackOptions } from '../../helpers/clients/stack.js';

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
  checkAndRemove(g.gw, g.files, witness);
}

/** The witness checked against a stopped gateway's logs, then its temp folder removed. */
function checkAndRemove(gw: RunningGateway, files: GatewayFiles, witness: SecretWitness): void {
  witness.check(gw.logs());
  rmSync(files.dir, { recursive: true, force: true });
}

/** What a governed gateway is made with: the config goes over mockConfig's (on the one mock). */
export interface GovernedOptions {
  over?: Record<string, unknown>;
  /** Gateway workers: 2 unless set. */
  workers?: number;
  extraProviders?: Record<string, unknown>;
  extraModels?: Record<string, unknown>;
  extraPools?: Record<string, unknown>;
}

/** The stack options of a governed gateway: `chain: [keys]`, the open admin posture, the signing key, `over` merged in. */
function governedStackOptions(opts: GovernedOptions): StackOptions & { workers: number } {
  return {
    over: { auth: { chain: ['keys'], admin_auth: [], upstream_credentials: 'own', signing_key: { env: 'GW_TEST_SIGNING_KEY' } }, ...opts.over },
    extraProviders: opts.extraProviders,
    extraModels: opts.extraModels,
    extraPools: opts.extraPools,
    workers: opts.workers ?? 2,
    env: { GW_TEST_SIGNING_KEY: SIGNING_KEY },
  };
}

/** A governed gateway on `mockUrl` (on `files` when given, say to restart one). */
export async function startGoverned(mockUrl: string, witness: SecretWitness, opts: GovernedOptions & { files?: GatewayFiles } = {}): Promise<Governed> {
  const stack = governedStackOptions(opts);
  let files = opts.files;
  if (files === undefined) {
    const { config, providers } = stackConfig(mockUrl, stack);
    files = writeConfig(config, providers);
  }
  const gw = await startGateway(files, { workers: stack.workers, env: stack.env });
  return { gw, admin: new Admin(gw, witness), files };
}

/**
 * The governed stack of the enclosing describe: its own mock (started with `mock`) and a
 * governed gateway on it, started before the describe's tests by startStack; after them both
 * stop and the witness is checked against the gateway's logs. Its fields are read inside the tests.
 */
class GovernedSuite extends SuiteStack implements Governed {
  private adminClient: Admin | undefined;

  constructor(
    opts: GovernedOptions,
    mock: MockOptions,
    readonly witness: SecretWitness,
  ) {
    super({ ...governedStackOptions(opts), mock }, (stack) => checkAndRemove(stack.gateway, stack.files, witness));
  }

  get gw(): RunningGateway {
    return this.gateway;
  }

  get admin(): Admin {
    this.adminClient ??= new Admin(this.gateway, this.witness);
    return this.adminClient;
  }
}

export function governedSuite(opts: GovernedOptions = {}, mock: MockOptions = {}, witness = new SecretWitness()): GovernedSuite {
  return new GovernedSuite(opts, mock, witness);
}

/** The AWS credential a mint issued (`issue_aws_credential`). */
export interface AwsCreds {
  aws_access_key_id: string;
  aws_secret_access_key: string;
}

/** The env of an AWS client's child process: the credential, a region, no config files (never the test's own env). */
export function awsEnv(creds: AwsCreds): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    AWS_ACCESS_KEY_ID: creds.aws_access_key_id,
    AWS_SECRET_ACCESS_KEY: creds.aws_secret_access_key,
    AWS_DEFAULT_REGION: 'us-east-1',
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_CONFIG_FILE: '/dev/null',
    AWS_SHARED_CREDENTIALS_FILE: '/dev/null',
    AWS_PAGER: '',
  };
}

/** One signing key per test process, so a restarted gateway verifies the keys it minted. */
export const SIGNING_KEY = signingKeyPem();
