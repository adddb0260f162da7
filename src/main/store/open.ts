// Opening the configured store. `memory` (default, ephemeral) and `sqlite` (embedded,
// durable) are for one node; `postgres` and `valkey` are for several nodes sharing one store.
// A setting given as a secret reference arrives resolved in `secrets` as `store.settings.<name>`.
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve, dirname } from 'node:path';
import type { ConnectionOptions } from 'node:tls';
import type { Store } from './store.js';
import { MemoryStore } from './memory.js';
import { SqliteStore } from './sqlite.js';
import { PostgresStore, type PostgresSettings } from './postgres.js';
import { ValkeyStore, type ValkeySettings } from './valkey.js';

export interface StoreConfig {
  module: string;
  settings?: Record<string, unknown>;
}

const SCHEMA_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

export function openStore(config: StoreConfig | undefined, configPath: string, secrets?: ReadonlyMap<string, string>): Store {
  const module = config?.module ?? 'memory';
  const folder = dirname(configPath);
  const read = new SettingsReader(module, config?.settings ?? {}, secrets, folder);
  switch (module) {
    case 'memory':
      return new MemoryStore();
    case 'sqlite': {
      const path = read.string('path') ?? 'gateway.db';
      return new SqliteStore(isAbsolute(path) ? path : resolve(folder, path));
    }
    case 'postgres':
      return new PostgresStore(postgresSettings(read));
    case 'valkey':
      return new ValkeyStore(valkeySettings(read));
    default:
      throw new Error(`store module "${module}" is not available in this build (memory, sqlite, postgres and valkey are)`);
  }
}

function postgresSettings(read: SettingsReader): PostgresSettings {
  const schema = read.string('schema') ?? 'public';
  if (!SCHEMA_NAME_PATTERN.test(schema)) throw new Error(`store.settings.schema: "${schema}" is not a plain identifier (letters, digits, _)`);
  const password = read.string('password');
  return {
    url: read.string('url') ?? 'postgres://127.0.0.1:5432/postgres',
    ...(password !== undefined ? { password } : {}),
    schema,
    poolMax: read.number('pool_max') ?? 10,
    connectTimeoutMs: read.number('connect_timeout_ms') ?? 5_000,
    statementTimeoutMs: read.number('statement_timeout_ms') ?? 5_000,
    tls: read.tls(),
  };
}

function valkeySettings(read: SettingsReader): ValkeySettings {
  const password = read.string('password');
  return {
    url: read.string('url') ?? 'redis://127.0.0.1:6379',
    ...(password !== undefined ? { password } : {}),
    keyPrefix: read.string('key_prefix') ?? 'gateway:',
    connectTimeoutMs: read.number('connect_timeout_ms') ?? 5_000,
    commandTimeoutMs: read.number('command_timeout_ms') ?? 5_000,
    tls: read.tls(),
  };
}

/** Reads one module's settings: resolved secrets win over the literal (a reference object). */
class SettingsReader {
  constructor(
    private readonly module: string,
    private readonly settings: Record<string, unknown>,
    private readonly secrets: ReadonlyMap<string, string> | undefined,
    private readonly folder: string,
  ) {}

  string(name: string): string | undefined {
    const secret = this.secrets?.get(`store.settings.${name}`);
    if (secret !== undefined) return secret;
    const value = this.settings[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') throw new Error(`store.settings.${name}: the ${this.module} store wants a string (or a secret reference)`);
    return value;
  }

  number(name: string): number | undefined {
    const value = this.settings[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
      throw new Error(`store.settings.${name}: the ${this.module} store wants a positive number`);
    }
    return value;
  }

  /** `tls: true` (system CAs) or `{ ca_file, cert_file, key_file, server_name, reject_unauthorized }`. */
  tls(): ConnectionOptions | undefined {
    const value = this.settings.tls;
    if (value === undefined || value === false || value === null) return undefined;
    if (value === true) return {};
    if (typeof value !== 'object') throw new Error(`store.settings.tls: true or a mapping (ca_file, cert_file, key_file, server_name, reject_unauthorized)`);
    const t = value as Record<string, unknown>;
    const file = (name: string): string | undefined => {
      const p = t[name];
      if (p === undefined) return undefined;
      if (typeof p !== 'string') throw new Error(`store.settings.tls.${name}: a file path`);
      return readFileSync(isAbsolute(p) ? p : resolve(this.folder, p), 'utf8');
    };
    const out: ConnectionOptions = {};
    const ca = file('ca_file');
    const cert = file('cert_file');
    const key = file('key_file');
    if (ca !== undefined) out.ca = ca;
    if (cert !== undefined) out.cert = cert;
    if (key !== undefined) out.key = key;
    if (typeof t.server_name === 'string') out.servername = t.server_name;
    if (t.reject_unauthorized === false) out.rejectUnauthorized = false;
    return out;
  }
}

/** How often a node re-reads the shared store's governance records when no notification came. */
export function peerPollIntervalMs(config: StoreConfig | undefined): number {
  const value = config?.settings?.poll_interval_ms;
  return typeof value === 'number' && Number.isFinite(value) && value >= 100 ? value : 2_000;
}
