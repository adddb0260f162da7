// Bench support for governance scenarios: a gateway with `auth.chain: [keys]`, a group with
// limits bound to the key the requests carry, metering on, and optionally many more keys. The
// keys and the group are written into a sqlite store before the gateway boots (so no admin
// round trip per key), and the bearer secret is signed here at import, so a scenario's request
// headers can name it. Everything lives in one temp folder, removed when the bench exits.
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { GatewayConfigFiles, Scenario, ScenarioRequest } from './scenario.js';
import { OPENAI_NONSTREAM_REQUEST } from './request-bodies.js';
import { SqliteStore } from '../src/main/store/sqlite.js';
import type { GroupRecord, KeyRecord } from '../src/main/store/records.js';

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
    id, name: id, group, allowed_pools: ['*'], max_budget_cents: 1_000_000_000, budget_period: 'monthly',
    rpm_limit: null, tpm_limit: null, enabled: true, created_at: NOW, expires_at: NOW + YEAR_SECS, jti, aws_access_key_id: null,
  };
}

const GROUP: GroupRecord = {
  name: 'bench',
  parent: null,
  enabled: true,
  per_request_fee_micros: 1,
  rate_card: [{ model: '*', tier: '*', input_micros_per_mtok: 1_000_000, output_micros_per_mtok: 2_000_000, cache_read_micros_per_mtok: 0, cache_creation_micros_per_mtok: 0 }],
  limits: [
    { metric: 'requests', window: 'minute', max: 1_000_000_000 },
    { metric: 'tokens', window: 'day', max: 1_000_000_000_000 },
    { metric: 'budget', window: 'month', max: 1_000_000_000_000 },
  ],
  child_default: null,
  created_at: NOW,
};

let dirs: string[] = [];
process.once('exit', () => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

/**
 * Turns the bench config into a governed one: keys chain, sqlite store seeded with the bench
 * group and key plus `extraKeys` more keys (bound to no group), metering on.
 */
export function governGateway(files: GatewayConfigFiles, extraKeys = 0): void {
  const dir = mkdtempSync(join(tmpdir(), 'gw-bench-gov-'));
  dirs.push(dir);
  const pemPath = join(dir, 'signing-key.pem');
  writeFileSync(pemPath, SIGNING_PEM, { mode: 0o600 });
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
      const id = `key_${createHash('sha1').update(String(i)).digest('base64url').slice(0, 16)}`;
      putKey.run(id, JSON.stringify(keyRecord(id, `j${i}`, null)));
    }
  })();
  db.close();
  const gateway = files.gateway;
  gateway.auth = { chain: ['keys'], signing_key: { file: pemPath } };
  gateway.store = { module: 'sqlite', settings: { path: dbPath } };
  gateway.governance = { enabled: true, flush_interval_secs: 5 };
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
export const SHARED_BYTES_PER_KEY = 168;

/** The governed request: scenario 1's body with the bench key as the bearer secret. */
export const GOVERNED_REQUEST: ScenarioRequest = {
  ...OPENAI_NONSTREAM_REQUEST,
  headers: { ...OPENAI_NONSTREAM_REQUEST.headers, authorization: `Bearer ${BENCH_SECRET}` },
};

/** Admission as keys grow: the governed request with `keys` keys in the store, the key table and
 * shared memory. The scenarios of the series differ in the key count only. */
export function admissionKeysScenario(name: string, keys: number, order: number): Scenario {
  return {
    name,
    title: `Governed admission with ${keys.toLocaleString('en')} keys (${SHARED_BYTES_PER_KEY} B shared memory per key)`,
    kind: 'throughput',
    request: GOVERNED_REQUEST,
    targets: ['gateway'],
    connections: 64,
    durationSecs: 5,
    expect: { bodyIncludes: '"choices"' },
    gatewayConfig: (files) => governGateway(files, keys - 1),
    order,
  };
}
