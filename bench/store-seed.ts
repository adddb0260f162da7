// Seeds (and drops) a bench schema on postgres or key prefix on valkey, run as a child process:
// a scenario's gatewayConfig is synchronous, so governed-gateway.ts calls this with spawnSync.
//   node dist/bench/store-seed.js seed <module> <settings.json> <records.json>
//   node dist/bench/store-seed.js drop <module> <settings.json>
// records.json: { keys: KeyRecord[], groups: GroupRecord[] }. The store makes its schema; the
// rows go in bulk (10,000 per statement / pipeline), not one admin call each.
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { Redis } from 'iovalkey';
import { PostgresStore } from '../src/main/store/postgres.js';
import type { GroupRecord, KeyRecord } from '../src/main/store/records.js';

export interface BenchStoreSettings {
  url: string;
  /** postgres */
  schema?: string;
  /** valkey */
  key_prefix?: string;
}

const CHUNK = 10_000;

async function seedPostgres(s: BenchStoreSettings, records: { keys: KeyRecord[]; groups: GroupRecord[] }): Promise<void> {
  const store = new PostgresStore({ url: s.url, schema: s.schema!, poolMax: 1, connectTimeoutMs: 5_000, statementTimeoutMs: 60_000 });
  await store.loadGovernance(); // applies the migrations
  await store.close();
  const client = new pg.Client({ connectionString: s.url });
  await client.connect();
  try {
    await client.query(`SET search_path TO "${s.schema!}"`);
    for (const g of records.groups) await client.query('INSERT INTO gov_groups (name, record) VALUES ($1, $2)', [g.name, JSON.stringify(g)]);
    for (let i = 0; i < records.keys.length; i += CHUNK) {
      const part = records.keys.slice(i, i + CHUNK);
      await client.query('INSERT INTO gov_keys (id, record) SELECT * FROM unnest($1::text[], $2::jsonb[])', [
        part.map((k) => k.id),
        part.map((k) => JSON.stringify(k)),
      ]);
    }
  } finally {
    await client.end();
  }
}

async function seedValkey(s: BenchStoreSettings, records: { keys: KeyRecord[]; groups: GroupRecord[] }): Promise<void> {
  const client = new Redis(s.url);
  try {
    const p = s.key_prefix!;
    for (const g of records.groups) await client.hset(`${p}gov:groups`, g.name, JSON.stringify(g));
    for (let i = 0; i < records.keys.length; i += CHUNK) {
      const args: string[] = [];
      for (const k of records.keys.slice(i, i + CHUNK)) args.push(k.id, JSON.stringify(k));
      await client.hset(`${p}gov:keys`, ...args);
    }
  } finally {
    client.disconnect();
  }
}

async function drop(module: string, s: BenchStoreSettings): Promise<void> {
  if (module === 'postgres') {
    const client = new pg.Client({ connectionString: s.url });
    await client.connect();
    try {
      await client.query(`DROP SCHEMA IF EXISTS "${s.schema!}" CASCADE`);
    } finally {
      await client.end();
    }
    return;
  }
  const client = new Redis(s.url);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${s.key_prefix!}*`, 'COUNT', 1000);
      if (keys.length > 0) await client.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    client.disconnect();
  }
}

async function main(): Promise<void> {
  const [command, module, settingsJson, recordsPath] = process.argv.slice(2);
  const settings = JSON.parse(settingsJson ?? '{}') as BenchStoreSettings;
  if (module !== 'postgres' && module !== 'valkey') throw new Error(`store-seed: module must be postgres or valkey, not ${module}`);
  if (command === 'drop') return drop(module, settings);
  if (command !== 'seed' || recordsPath === undefined) throw new Error('usage: store-seed.js seed|drop <module> <settings.json> [records.json]');
  const records = JSON.parse(readFileSync(recordsPath, 'utf8')) as { keys: KeyRecord[]; groups: GroupRecord[] };
  await (module === 'postgres' ? seedPostgres(settings, records) : seedValkey(settings, records));
}

main().catch((err: Error) => {
  process.stderr.write(`store-seed: ${err.message}\n`);
  process.exit(1);
});
