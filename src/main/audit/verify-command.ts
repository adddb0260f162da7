// `gateway audit verify [--config PATH]`: reads the durable audit log of the config's store and
// checks every run's hash chain. Exit 0 when intact; 1 naming the first altered, reordered or
// missing entry (or when the store keeps no durable log).
import { loadConfig } from '../config/load.js';
import { openStore } from '../store/open.js';
import { verifyAuditLog } from './verify.js';

export async function runAuditVerify(opts: { configPath: string }, out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  const loaded = await loadConfig({ configPath: opts.configPath, safeMode: true, purpose: 'validate' });
  if (loaded.config === undefined) {
    err.write(`gateway audit verify: cannot read the store settings from ${loaded.configPath}: ${loaded.errors[0] ?? 'invalid config'}\n`);
    return 1;
  }
  const store = openStore(loaded.config.store, loaded.configPath, loaded.secrets);
  try {
    if (!store.durableAudit) {
      err.write(`gateway audit verify: the ${store.module} store keeps no durable audit log (GET /audit serves the in-memory ring)\n`);
      return 1;
    }
    const { rows, heads } = await store.readAuditLog();
    const result = verifyAuditLog(rows, heads);
    if (result.ok) {
      out.write(`audit log intact: ${result.entries} entries in ${result.runs} run(s)\n`);
      return 0;
    }
    out.write(`audit log broken: ${result.kind}: ${result.message}\n`);
    return 1;
  } finally {
    await store.close();
  }
}
