// Opening the configured store. `memory` (default, ephemeral) and `sqlite` (embedded,
// durable) are built in; `postgres` and `valkey` are for several nodes sharing one store.
import { isAbsolute, resolve, dirname } from 'node:path';
import type { Store } from './store.js';
import { MemoryStore } from './memory.js';
import { SqliteStore } from './sqlite.js';

export interface StoreConfig {
  module: string;
  settings?: Record<string, unknown>;
}

export function openStore(config: StoreConfig | undefined, configPath: string): Store {
  const module = config?.module ?? 'memory';
  switch (module) {
    case 'memory':
      return new MemoryStore();
    case 'sqlite': {
      const path = String(config?.settings?.path ?? 'gateway.db');
      return new SqliteStore(isAbsolute(path) ? path : resolve(dirname(configPath), path));
    }
    default:
      throw new Error(`store module "${module}" is not available in this build (memory and sqlite are)`);
  }
}
