// Bench support for governance scenarios: a gateway with `auth.chain: [keys]`, a group with
// limits bound to the key the requests carry, metering on, and optionally many more keys. The
// keys and the group are written into a sqlite store before the gateway boots (so no admin
// round trip per key), and the bearer secret is signed here at import, so a scenario's request
// headers can name it. Everything lives in one temp folder, removed when the bench exits.
// The shared stores (postgres, valkey) get a schema / key prefix of their own per scenario,
// seeded and dropped by a child process (store-seed.ts) since gatewayConfig is synchronous.
import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import type { GatewayConfigFiles, Scenario, ScenarioRequest } from './scenario.js';
import { OPENAI_NONSTREAM_REQUEST } from './request-bodies.js';
import { SqliteStore } from '../src/main/store/sqlite.js';
import type { GroupRecord, KeyRecord } from '../src/main/store/records.js';
import type { BenchStoreSettings } from './store-seed.js';

const { privateKey } = generateKeyPairSync('ed25519');
const SIGNING_PEM = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const BENCH_KEY_ID = 'key_bench';
const BENCH_JTI = 'bench';
const YEAR_SECS = 365 * 86_400;

function b64url(value: string | Buffer): string {
  return Buffer.from(value).toString('base64url');
}

/** A compact JWS (EdDSA) the gateway verifies like one it minted. */
function signKey(sub: string, jti: string, iat: number, exp: number): string {
  const signingInput = `${b64url(JSON.stringify({ alg: 'EdDSA', typ: 'JWT' }))}.${b64url(JSON.stringify({ sub, jti, iat, exp }))}`;
  return `${signingInput}.${b64url(sign(null, Buffer.from(signingInput), privateKey))}`;
}

const NOW = Math.floor(Date.now() / 1000);
/** The bearer secret of the key the governed scenarios send. */
export const BENCH_SECRET = signKey(BENCH_KEY_ID, BENCH_JTI, NOW, NOW + YEAR_SECS);

function keyRecord(id: string, jti: string, group: string | null): KeyRecord {
  return {
    id,
    name: id,
    group,
    allowed_pools: ['*'],
    max_budget_cents: 1_000_000_000,
    budget_period: 'monthly',
    rpm_limit: null,
    tpm_limit: null,
    enabled: true,
    created_at: NOW,
    expires_at: NOW + YEAR_SECS,
    jti,
    aws_access_key_id: null,
  };
}

const GROUP: GroupRecord = {
  name: 'bench',
  parent: null,
  enabled: true,
  per_request_fee_micros: 1,
  rate_card: [
    {
      model: '*',
      tier: '*',
      input_micros_per_mtok: 1_000_000,
      output_micros_per_mtok: 2_000_000,
      cache_read_micros_per_mtok: 0,
      cache_creation_micros_per_mtok: 0,
    },
  ],
  limits: [
    { metric: 'requests', window: 'minute', max: 1_000_000_000 },
    { metric: 'tokens', window: 'day', max: 1_000_000_000_000 },
    { metric: 'budget', window: 'month', max: 1_000_000_000_000 },
  ],
  child_default: null,
  created_at: NOW,
};

let dirs: string[] = [];
/** Shared-store schemas / key prefixes this bench made, dropped at exit. */
let sharedStores: Array<{ module: SharedStoreModule; settings: BenchStoreSettings }> = [];
process.once('exit', () => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
  for (const s of sharedStores) runSeed(['drop', s.module, JSON.stringify(s.settings)]);
  sharedStores = [];
});

export type BenchStoreModule = 'memory' | 'sqlite' | 'postgres' | 'valkey';
type SharedStoreModule = 'postgres' | 'valkey';
const BENCH_POSTGRES_URL = process.env.GATEWAY_BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const BENCH_VALKEY_URL = process.env.GATEWAY_BENCH_VALKEY_URL ?? 'redis://127.0.0.1:6379';
const SEED_SCRIPT = fileURLToPath(new URL('./store-seed.js', import.meta.url));

function runSeed(args: string[]): void {
  const done = spawnSync(process.execPath, [SEED_SCRIPT, ...args], { stdio: ['ignore', 'inherit', 'pipe'], encoding: 'utf8' });
  if (done.status !== 0) throw new Error(`bench store ${args[0]} (${args[1]}) failed: ${done.stderr.trim()}`);
}

/** A fresh schema (postgres) or key prefix (valkey) holding `records`; dropped when the bench exits. */
function sharedStore(module: SharedStoreModule, dir: string, records: { keys: KeyRecord[]; groups: GroupRecord[] }): Record<string, unknown> {
  const suffix = randomBytes(5).toString('hex');
  const settings: BenchStoreSettings =
    module === 'postgres' ? { url: BENCH_POSTGRES_URL, schema: `gw_bench_${suffix}` } : { url: BENCH_VALKEY_URL, key_prefix: `gw-bench-${suffix}:` };
  const recordsPath = join(dir, 'records.json');
  writeFileSync(recordsPath, JSON.stringify(records));
  sharedStores.push({ module, settings });
  runSeed(['seed', module, JSON.stringify(settings), recordsPath]);
  rmSync(recordsPath, { force: true });
  return { ...settings };
}

/**
 * Turns the bench config into a governed one: keys chain, a store (sqlite unless `store` says
 * postgres or valkey) seeded with the bench group and key plus `extraKeys` more keys (bound to
 * no group), metering on. memory cannot be seeded before boot: use `meteredOpenGateway`.
 */
export function governGateway(files: GatewayConfigFiles, extraKeys = 0, store: Exclude<BenchStoreModule, 'memory'> = 'sqlite'): void {
  const dir = mkdtempSync(join(tmpdir(), 'gw-bench-gov-'));
  dirs.push(dir);
  const pemPath = join(dir, 'signing-key.pem');
  writeFileSync(pemPath, SIGNING_PEM, { mode: 0o600 });
  const gateway = files.gateway;
  gateway.auth = { chain: ['keys'], signing_key: { file: pemPath } };
  gateway.governance = { enabled: true, flush_interval_secs: 5 };
  if (store !== 'sqlite') {
    const keys = [keyRecord(BENCH_KEY_ID, BENCH_JTI, GROUP.name)];
    for (let i = 0; i < extraKeys; i++) keys.push(keyRecord(extraKeyId(i), `j${i}`, null));
    gateway.store = { module: store, settings: sharedStore(store, dir, { keys, groups: [GROUP] }) };
    return;
  }
  const dbPath = join(dir, 'gov.db');
  // The store makes the schema; the rows go in one transaction through better-sqlite3 (a
  // million keys would take minutes as one admin call each).
  void new SqliteStore(dbPath).close();
  const db = new Database(dbPath);
  const putKey = db.prepare('INSERT INTO gov_keys (id, record) VALUES (?, ?)');
  db.transaction(() => {
    db.prepare('INSERT INTO gov_groups (name, record) VALUES (?, ?)').run(GROUP.name, JSON.stringify(GROUP));
    putKey.run(BENCH_KEY_ID, JSON.stringify(keyRecord(BENCH_KEY_ID, BENCH_JTI, GROUP.name)));
    for (let i = 0; i < extraKeys; i++) {
      const id = extraKeyId(i);
      putKey.run(id, JSON.stringify(keyRecord(id, `j${i}`, null)));
    }
  })();
  db.close();
  gateway.store = { module: 'sqlite', settings: { path: dbPath } };
}

function extraKeyId(i: number): string {
  return `key_${createHash('sha1').update(String(i)).digest('base64url').slice(0, 16)}`;
}

/**
 * Scenario 1 on a given store: the open front door (scenario 1's request as is), metering on,
 * usage flushed to `store` every 5 s. Nothing on the request path touches the store, so the
 * rows of the four stores should match; the gateway's CPU/req includes the flushes.
 */
function meteredOpenGateway(files: GatewayConfigFiles, store: BenchStoreModule): void {
  const dir = mkdtempSync(join(tmpdir(), 'gw-bench-store-'));
  dirs.push(dir);
  const pemPath = join(dir, 'signing-key.pem');
  writeFileSync(pemPath, SIGNING_PEM, { mode: 0o600 });
  const gateway = files.gateway;
  gateway.auth = { chain: [], signing_key: { file: pemPath } };
  gateway.governance = { enabled: true, flush_interval_secs: 5 };
  if (store === 'memory') gateway.store = { module: 'memory' };
  else if (store === 'sqlite') gateway.store = { module: 'sqlite', settings: { path: join(dir, 'store.db') } };
  else gateway.store = { module: store, settings: sharedStore(store, dir, { keys: [], groups: [] }) };
}

const DAY_SECS = 86_400;

/**
 * For the admin-under-load scenario: the bench config keeps its open front door (so the data
 * plane serves exactly scenario 1's request) and gains a signing key (so keys can be minted),
 * metering, and a sqlite store seeded with `meteredKeys` keys that each have today's usage row,
 * so every GET /usage aggregates that many keys.
 */
export function meteredStore(files: GatewayConfigFiles, meteredKeys: number): void {
  const dir = mkdtempSync(join(tmpdir(), 'gw-bench-admin-'));
  dirs.push(dir);
  const pemPath = join(dir, 'signing-key.pem');
  writeFileSync(pemPath, SIGNING_PEM, { mode: 0o600 });
  const dbPath = join(dir, 'gov.db');
  void new SqliteStore(dbPath).close();
  const db = new Database(dbPath);
  const putKey = db.prepare('INSERT INTO gov_keys (id, record) VALUES (?, ?)');
  const putUsage = db.prepare(
    'INSERT INTO usage_key_daily (day, key_id, model, provider, tokens_input, tokens_output, tokens_cache_read, tokens_cache_creation, requests) VALUES (?, ?, ?, ?, ?, ?, 0, 0, ?)',
  );
  const day = NOW - (NOW % DAY_SECS);
  db.transaction(() => {
    for (let i = 0; i < meteredKeys; i++) {
      const id = `key_${createHash('sha1').update(`m${i}`).digest('base64url').slice(0, 16)}`;
      putKey.run(id, JSON.stringify(keyRecord(id, `m${i}`, null)));
      // Uneven usage, so the top-1000 cut by spend has work to do.
      putUsage.run(day, id, 'm', 'mock', 12 * (1 + (i % 97)), 5 * (1 + (i % 89)), 1 + (i % 7));
    }
  })();
  db.close();
  const gateway = files.gateway;
  gateway.auth = { chain: [], signing_key: { file: pemPath } };
  gateway.store = { module: 'sqlite', settings: { path: dbPath } };
  gateway.governance = { enabled: true, flush_interval_secs: 5 };
}

/** Shared memory per key: one key record (layout.ts GOV_KEY_RECORD_WORDS x 4 bytes). */
const SHARED_BYTES_PER_KEY = 184;

/** The governed request: scenario 1's body with the bench key as the bearer secret. */
export const GOVERNED_REQUEST: ScenarioRequest = {
  ...OPENAI_NONSTREAM_REQUEST,
  headers: { ...OPENAI_NONSTREAM_REQUEST.headers, authorization: `Bearer ${BENCH_SECRET}` },
};

/**
 * Boot loads every key before /healthz answers: parse each stored record, index it, give it a
 * shared-memory record, send workers the columns. About 13-15 s for a million keys on one idle
 * core here (profiled: JSON.parse of the records, two million-entry Maps, the column snapshot
 * and its encoding; no per-key message), and twice that on a busy machine, so 30 s is not
 * enough there: allow 30 s plus 60 s per million keys.
 */
function readySecsFor(keys: number): number {
  return 30 + Math.ceil((60 * keys) / 1_000_000);
}

/** Admission as keys grow: the governed request with `keys` keys in the store, the key table and
 * shared memory. The scenarios of the series differ in the key count only. */
export function admissionKeysScenario(name: string, keys: number, order: number, store: Exclude<BenchStoreModule, 'memory'> = 'sqlite'): Scenario {
  return {
    name,
    title: `Governed admission with ${keys.toLocaleString('en')} keys (${SHARED_BYTES_PER_KEY} B shared memory per key)${store === 'sqlite' ? '' : `, ${store} store`}`,
    kind: 'throughput',
    request: GOVERNED_REQUEST,
    targets: ['gateway'],
    connections: 64,
    durationSecs: 5,
    expect: { bodyIncludes: '"choices"' },
    gatewayConfig: (files) => governGateway(files, keys - 1, store),
    governed: true,
    gatewayReadySecs: readySecsFor(keys),
    order,
  };
}

/** Scenario 1 on one store (issue 13): openai-nonstream's request through the open front door,
 * metering on, usage flushed to the store every 5 s. The four store variants run in one run:
 * nothing on the request path touches the store, so their rows should match. */
export function storeScenario(store: BenchStoreModule): Scenario {
  return {
    name: `openai-nonstream-store-${store}`,
    title: `OpenAI chat, non-stream, through a pool, metering on, ${store} store`,
    kind: 'throughput',
    request: OPENAI_NONSTREAM_REQUEST,
    targets: ['gateway'],
    connections: 64,
    durationSecs: 5,
    expect: { bodyIncludes: '"choices"' },
    gatewayConfig: (files) => meteredOpenGateway(files, store),
    governed: true,
    order: 16,
  };
}

/** The governed scenario 1 on a shared store (issue 13): openai-nonstream-governed's key, group
 * limits and metering, the keys in the store, counters reconciled with the fleet every flush. */
export function governedStoreScenario(store: Exclude<BenchStoreModule, 'memory' | 'sqlite'>): Scenario {
  return {
    name: `openai-nonstream-governed-${store}`,
    title: `OpenAI chat, non-stream, through a pool, with a virtual key, group limits and metering, ${store} store`,
    kind: 'throughput',
    request: GOVERNED_REQUEST,
    targets: ['gateway'],
    connections: 64,
    durationSecs: 5,
    expect: { bodyIncludes: '"choices"' },
    gatewayConfig: (files) => governGateway(files, 0, store),
    governed: true,
    order: 17,
  };
}

/**
 * `--governed`: the scenario as a governed caller runs it. Its requests carry the bench key
 * (every ingress takes `Authorization: Bearer`), and its gateway gets the governed config on top
 * of the scenario's own; scenarios that had the plain gateway share one governed gateway.
 * Scenarios that set up auth themselves (`governed: true`) are left as they are.
 */
export function governedVariant(s: Scenario): Scenario {
  if (s.governed === true) return s;
  const own = s.gatewayConfig;
  return {
    ...s,
    title: `${s.title}; governed: virtual key, group limits, metering`,
    request: { ...s.request, headers: { ...s.request.headers, authorization: `Bearer ${BENCH_SECRET}` } },
    gatewayConfig: (files) => {
      own?.(files);
      governGateway(files);
    },
    ...(own === undefined ? { sharedGateway: 'governed' } : {}),
    governed: true,
  };
}
