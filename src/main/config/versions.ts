// Config versions: the snapshot of each config_version this process made (0 at boot, +1 per
// apply, reload, rollback or admin-auth change), the last 100 kept in memory. Versions are
// process-local like config_version itself, so they are not kept across a restart.
const RETAINED_VERSIONS = 100;

export interface ConfigVersionRecord {
  version: number;
  ts: number;
  principal: string;
  summary: string;
  /** The deployment config of this version, as a loadable document (defaults filled in). */
  document: Record<string, unknown>;
}

export class ConfigVersions {
  private readonly records: ConfigVersionRecord[] = [];

  add(record: ConfigVersionRecord): void {
    this.records.push(record);
    if (this.records.length > RETAINED_VERSIONS) this.records.shift();
  }

  get(version: number): ConfigVersionRecord | undefined {
    return this.records.find((r) => r.version === version);
  }

  /** Newest first. */
  newestFirst(): ConfigVersionRecord[] {
    return [...this.records].reverse();
  }
}
