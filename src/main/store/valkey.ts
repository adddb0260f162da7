// The valkey (or Redis-protocol) store (iovalkey): one store shared by several gateway nodes.
// Every key starts with the configured prefix. Records are JSON in hashes; usage is one hash
// per UTC day whose fields are `<key parts>\0<metric>` counted with HINCRBY. Writes touching
// several keys go in one MULTI (all or nothing, in order); commands are pipelined on one
// connection, so the audit appends land in call order. The writer lease is a key with PX expiry
// taken by a Lua compare-and-set.
import { Redis, type RedisOptions } from 'iovalkey';
import { hostname } from 'node:os';
import type { ConnectionOptions } from 'node:tls';
import { Store, type BreakerTripRow, type FlushBatch, type UsageRow } from './store.js';
import type { CounterDelta, FleetCount, FleetCounters, FleetReconcile } from './fleet-counters.js';
import type { CounterRow, GovernanceRecords, GroupRecord, KeyRecord, KeyUsageRow, Revocation } from './records.js';
import type { AuditEntry, AuditWriterHolder, RunHead, StoredAuditEntry } from '../audit/store-records.js';
import { holderAlive } from './sqlite-audit.js';
import type { ChangeFeed, SharedConfig } from './peer-sync.js';
import { StoreUnavailableError } from './store-unavailable.js';
import { ValkeyResponses } from './valkey-responses.js';
import { NO_USAGE_COUNTS } from '../usage/usage-counts.js';

export interface ValkeySettings {
  /** `redis://[:password@]host:port[/db]` or `rediss://` for TLS. */
  url: string;
  password?: string;
  /** Every key this store writes starts with it: several deployments may share one server. */
  keyPrefix: string;
  connectTimeoutMs: number;
  /** A command's ceiling, so an admin call on a stalled store answers instead of hanging. */
  commandTimeoutMs: number;
  tls?: ConnectionOptions | undefined;
}

const USAGE_METRICS = ['tokensInput', 'tokensOutput', 'tokensCacheRead', 'tokensCacheCreation', 'requests', 'truncated'] as const;
const KEY_USAGE_METRICS = ['tokensInput', 'tokensOutput', 'tokensCacheRead', 'tokensCacheCreation', 'requests'] as const;

/** A day's hash back as rows: a field is `a SEP b SEP c SEP metric`, one row per (a, b, c), made zero by `newRow`. */
function rowsOfCells<Row extends object>(all: Record<string, string>, newRow: (a: string, b: string, c: string) => Row): Row[] {
  const rows = new Map<string, Row>();
  for (const [field, value] of Object.entries(all)) {
    const [a, b, c, metric] = field.split(SEP) as [string, string, string, string];
    const id = `${a}${SEP}${b}${SEP}${c}`;
    let row = rows.get(id);
    if (row === undefined) {
      row = newRow(a, b, c);
      rows.set(id, row);
    }
    (row as Record<string, number>)[metric] = Number(value);
  }
  return [...rows.values()];
}

/** A flush's (day, field, increment) cells: each non-zero metric of a row under its `base` field prefix. */
function usageCells<Metric extends string, Row extends { day: number } & Record<Metric, number>>(
  rows: readonly Row[],
  baseOf: (row: Row) => string,
  metrics: readonly Metric[],
): Array<[number, string, number]> {
  const cells: Array<[number, string, number]> = [];
  for (const row of rows) {
    const base = baseOf(row);
    for (const m of metrics) if (row[m] !== 0) cells.push([row.day, base + m, row[m]]);
    // A zero row still exists afterwards, as in the other stores.
    cells.push([row.day, base + 'requests', 0]);
  }
  return cells;
}
const SEP = '\u0000';
/** At least the values of the largest governance record (a group's 15). */
/** Value numbers a record's position-independent fleet counts use (a group: 5 windows x 6). Its
 * lanes' rows (`<holder>\u0001<lane>`) are not enumerable here and stay, unread, when it goes. */
const FLEET_VALUES_MAX = 30;

// KEYS[1] the lease; ARGV owner, holder JSON, ttl, owner that may be displaced (dead) or ''.
const LEASE_LUA = `
local cur = redis.call('GET', KEYS[1])
if cur then
  local holder = cjson.decode(cur)
  if holder.owner ~= ARGV[1] and holder.owner ~= ARGV[4] then return cur end
end
redis.call('SET', KEYS[1], ARGV[2], 'PX', tonumber(ARGV[3]))
return false`;

// KEYS[1] the flush-batch hash, KEYS[2..] the usage hashes; ARGV stream ('' = no batch id), seq,
// then (key number, field, increment) triples. A batch at or below the stream's last seq is
// skipped: the check, the record and the adds are one script, so one atomic step.
const USAGE_ONCE_LUA = `
if ARGV[1] ~= '' then
  local last = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '-1')
  if last >= tonumber(ARGV[2]) then return 0 end
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
end
for i = 3, #ARGV, 3 do
  redis.call('HINCRBY', KEYS[tonumber(ARGV[i])], ARGV[i + 1], ARGV[i + 2])
end
return 1`;

// KEYS[1] flush batches, KEYS[2] fleet counts (field holder\0value = "tag:count"), KEYS[3] the
// change index (zset field -> change number), KEYS[4] the change counter. ARGV stream, seq,
// since, then (field, tag, delta) triples. Same window adds (never below 0), a newer window
// starts over, an older one is dropped. Answers applied, then (field, change, "tag:count") for
// every field changed after \`since\`.
const FLEET_LUA = `
local applied = 0
local last = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '-1')
if last < tonumber(ARGV[2]) then
  applied = 1
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
  for i = 4, #ARGV, 3 do
    local field, tag, delta = ARGV[i], tonumber(ARGV[i + 1]), tonumber(ARGV[i + 2])
    local cur = redis.call('HGET', KEYS[2], field)
    local ctag, count = tag, 0
    if cur then
      local sep = string.find(cur, ':', 1, true)
      ctag = tonumber(string.sub(cur, 1, sep - 1))
      count = tonumber(string.sub(cur, sep + 1))
    end
    if ctag == tag then
      count = math.max(count + delta, 0)
    else
      local d = (tag - ctag) % 65536
      if d > 0 and d < 32768 then
        ctag = tag
        count = math.max(delta, 0)
      end
    end
    redis.call('HSET', KEYS[2], field, string.format('%d:%d', ctag, count))
    redis.call('ZADD', KEYS[3], redis.call('INCR', KEYS[4]), field)
  end
end
local changed = redis.call('ZRANGEBYSCORE', KEYS[3], '(' .. ARGV[3], '+inf', 'WITHSCORES')
local out = { applied }
for i = 1, #changed, 2 do
  out[#out + 1] = changed[i]
  out[#out + 1] = changed[i + 1]
  out[#out + 1] = redis.call('HGET', KEYS[2], changed[i])
end
return out`;

const RELEASE_LUA = `
local cur = redis.call('GET', KEYS[1])
if cur and cjson.decode(cur).owner == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1`;

export class ValkeyStore extends Store implements ChangeFeed, FleetCounters {
  readonly module = 'valkey';
  readonly durableAudit = true;
  readonly client: Redis;
  private readonly k: {
    keys: string;
    groups: string;
    revocations: string;
    counters: string;
    trips: string;
    auditLog: string;
    auditRuns: string;
    auditWriter: string;
    usage: string;
    keyUsage: string;
    changes: string;
    batches: string;
    fleet: string;
    fleetChanges: string;
    fleetChange: string;
    version: string;
    config: string;
  };
  auditWriteFailures = 0;

  constructor(readonly settings: ValkeySettings) {
    super();
    const p = settings.keyPrefix;
    this.k = {
      keys: `${p}gov:keys`,
      groups: `${p}gov:groups`,
      revocations: `${p}gov:revocations`,
      counters: `${p}gov:counters`,
      trips: `${p}breaker:trips`,
      auditLog: `${p}audit:log`,
      auditRuns: `${p}audit:runs`,
      auditWriter: `${p}audit:writer`,
      usage: `${p}usage:`,
      keyUsage: `${p}usage-key:`,
      changes: `${p}changes`,
      batches: `${p}flush:batches`,
      fleet: `${p}fleet:counts`,
      fleetChanges: `${p}fleet:changes`,
      fleetChange: `${p}fleet:change`,
      version: `${p}gov:version`,
      config: `${p}config`,
    };
    const options: RedisOptions = {
      connectTimeout: settings.connectTimeoutMs,
      commandTimeout: settings.commandTimeoutMs,
      // Fail a command at once while disconnected rather than queueing it without bound.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      lazyConnect: false,
      // Reconnect with backoff, capped: the store coming back is picked up without a restart.
      retryStrategy: (times) => Math.min(50 * 2 ** Math.min(times, 6), 2_000),
      ...(settings.password !== undefined ? { password: settings.password } : {}),
      ...(settings.tls !== undefined ? { tls: settings.tls } : {}),
    };
    this.client = new Redis(settings.url, options);
    // Connection errors surface on the commands; an 'error' without a listener would kill the process.
    this.client.on('error', () => undefined);
    // EVALSHA, falling back to EVAL once per connection: the scripts are not resent per flush.
    this.client.defineCommand('gwUsageOnce', { lua: USAGE_ONCE_LUA });
    this.client.defineCommand('gwFleet', { numberOfKeys: 4, lua: FLEET_LUA });
    this.responses = new ValkeyResponses(this.client, p, () => this.connected());
  }

  // --- responses state ---
  protected readonly responses: ValkeyResponses;
  // --- end responses state ---

  private async evalCommand(name: 'gwUsageOnce' | 'gwFleet', args: Array<string | number>): Promise<unknown> {
    const run = (this.client as unknown as Record<string, (...a: Array<string | number>) => Promise<unknown>>)[name]!;
    return run.apply(this.client, args).catch((err: Error) => {
      throw err.name === 'ReplyError' ? err : new StoreUnavailableError('valkey', err);
    });
  }

  /** Usage increments in one script with the batch check (see USAGE_ONCE_LUA). */
  private async addOnce(prefix: string, cells: Array<[day: number, field: string, increment: number]>, batch: FlushBatch | undefined): Promise<void> {
    const keys: string[] = [this.k.batches];
    const keyOf = new Map<number, number>();
    const args: Array<string | number> = [batch?.stream ?? '', batch?.seq ?? 0];
    for (const [day, field, increment] of cells) {
      let n = keyOf.get(day);
      if (n === undefined) {
        keys.push(prefix + day);
        n = keys.length;
        keyOf.set(day, n);
      }
      args.push(n, field, increment);
    }
    await this.evalCommand('gwUsageOnce', [keys.length, ...keys, ...args]);
  }

  /** Waits for the first connection (commands fail fast while offline). */
  private async connected(): Promise<void> {
    if (this.client.status === 'ready') return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.client.off('ready', onReady);
        reject(new StoreUnavailableError('valkey', new Error(`no connection to ${redactUrl(this.settings.url)} within ${this.settings.connectTimeoutMs} ms`)));
      }, this.settings.connectTimeoutMs);
      const onReady = (): void => {
        clearTimeout(timer);
        resolve();
      };
      this.client.once('ready', onReady);
    });
  }

  private async exec(multi: ReturnType<Redis['multi']>): Promise<void> {
    const results = await multi.exec().catch((err: Error) => {
      // A reply error is a bad command (a bug); anything else is the connection.
      throw err.name === 'ReplyError' ? err : new StoreUnavailableError('valkey', err);
    });
    if (results === null) throw new Error('valkey store: the transaction was aborted');
    for (const [err] of results) if (err) throw err;
  }

  // --- usage ---

  protected async addUsageRows(rows: UsageRow[], batch?: FlushBatch): Promise<void> {
    await this.connected();
    const cells = usageCells(rows, (row) => `${row.pool}${SEP}${row.lane}${SEP}${row.provider}${SEP}`, USAGE_METRICS);
    await this.addOnce(this.k.usage, cells, batch);
  }

  protected async readUsageDay(day: number): Promise<UsageRow[]> {
    await this.connected();
    const all = await this.client.hgetall(this.k.usage + day);
    const rows = rowsOfCells(all, (pool, lane, provider): UsageRow => ({ day, pool, lane, provider, ...NO_USAGE_COUNTS, truncated: 0 }));
    return rows.sort((a, b) => cmp(a.pool, b.pool) || cmp(a.lane, b.lane) || cmp(a.provider, b.provider));
  }

  protected async addKeyUsageRows(rows: KeyUsageRow[], batch?: FlushBatch): Promise<void> {
    await this.connected();
    const cells = usageCells(rows, (row) => `${row.keyId}${SEP}${row.model}${SEP}${row.provider}${SEP}`, KEY_USAGE_METRICS);
    await this.addOnce(this.k.keyUsage, cells, batch);
  }

  // --- fleet counters (several nodes) ---

  /** A revoked key's or deleted group's fleet counts go with it (every value number a record can have). */
  private forgetFleetHolder(multi: ReturnType<Redis['multi']>, holder: string): ReturnType<Redis['multi']> {
    const fields = Array.from({ length: FLEET_VALUES_MAX }, (_, v) => `${holder}${SEP}${v}`);
    return multi.hdel(this.k.fleet, ...fields).zrem(this.k.fleetChanges, ...fields);
  }

  async reconcileCounters(batch: FlushBatch, deltas: CounterDelta[], since: number): Promise<FleetReconcile> {
    await this.connected();
    const args: Array<string | number> = [this.k.batches, this.k.fleet, this.k.fleetChanges, this.k.fleetChange, batch.stream, batch.seq, since];
    for (const d of deltas) args.push(`${d.holder}${SEP}${d.value}`, d.tag, d.delta);
    const out = (await this.evalCommand('gwFleet', args)) as Array<number | string>;
    const rows: FleetCount[] = [];
    for (let i = 1; i + 2 < out.length; i += 3) {
      const field = String(out[i]);
      const cut = field.lastIndexOf(SEP);
      const cell = String(out[i + 2]);
      const colon = cell.indexOf(':');
      rows.push({
        holder: field.slice(0, cut),
        value: Number(field.slice(cut + 1)),
        changed: Number(out[i + 1]),
        tag: Number(cell.slice(0, colon)),
        count: Number(cell.slice(colon + 1)),
      });
    }
    return { applied: out[0] === 1, rows, last: rows.length > 0 ? rows[rows.length - 1]!.changed : since };
  }

  protected async readKeyUsageDay(day: number): Promise<KeyUsageRow[]> {
    await this.connected();
    const all = await this.client.hgetall(this.k.keyUsage + day);
    const rows = rowsOfCells(all, (keyId, model, provider): KeyUsageRow => ({ day, keyId, model, provider, ...NO_USAGE_COUNTS }));
    return rows.sort((a, b) => cmp(a.keyId, b.keyId) || cmp(a.model, b.model) || cmp(a.provider, b.provider));
  }

  // --- governance ---

  protected async readGovernance(): Promise<GovernanceRecords> {
    await this.connected();
    const results = await this.client.pipeline().hgetall(this.k.keys).hgetall(this.k.groups).hgetall(this.k.revocations).hgetall(this.k.counters).exec();
    if (results === null) throw new Error('valkey store: the read was aborted');
    for (const [err] of results) if (err) throw err;
    const [keys, groups, revocations, counters] = results.map(([, v]) => v as Record<string, string>) as [
      Record<string, string>,
      Record<string, string>,
      Record<string, string>,
      Record<string, string>,
    ];
    const sorted = (m: Record<string, string>): string[] =>
      Object.keys(m)
        .sort(cmp)
        .map((k) => m[k]!);
    return {
      keys: sorted(keys).map((v) => JSON.parse(v) as KeyRecord),
      groups: sorted(groups).map((v) => JSON.parse(v) as GroupRecord),
      revocations: sorted(revocations).map((v) => JSON.parse(v) as Revocation),
      counters: Object.keys(counters)
        .sort(cmp)
        .map((holder) => ({ holder, words: JSON.parse(counters[holder]!) as string[] })),
    };
  }

  protected async writeKey(key: KeyRecord): Promise<void> {
    await this.connected();
    await this.exec(this.client.multi().hset(this.k.keys, key.id, JSON.stringify(key)).incr(this.k.version).publish(this.k.changes, 'keys'));
  }

  protected async writeRevocation(r: Revocation): Promise<void> {
    await this.connected();
    const revocation: Revocation = { id: r.id, expires_at: r.expires_at, revoked_at: r.revoked_at };
    await this.exec(
      this.forgetFleetHolder(this.client.multi(), `key:${r.id}`)
        .hdel(this.k.keys, r.id)
        .hdel(this.k.counters, `key:${r.id}`)
        .hset(this.k.revocations, r.id, JSON.stringify(revocation))
        .incr(this.k.version)
        .publish(this.k.changes, 'revocations'),
    );
  }

  protected async writeGroup(group: GroupRecord): Promise<void> {
    await this.connected();
    await this.exec(this.client.multi().hset(this.k.groups, group.name, JSON.stringify(group)).incr(this.k.version).publish(this.k.changes, 'groups'));
  }

  protected async removeGroup(name: string): Promise<void> {
    await this.connected();
    await this.exec(
      this.forgetFleetHolder(this.client.multi(), `group:${name}`)
        .hdel(this.k.groups, name)
        .hdel(this.k.counters, `group:${name}`)
        .incr(this.k.version)
        .publish(this.k.changes, 'groups'),
    );
  }

  protected async writeCounters(rows: CounterRow[]): Promise<void> {
    await this.connected();
    const multi = this.client.multi();
    for (const row of rows) {
      if (row.words === null) multi.hdel(this.k.counters, row.holder);
      else multi.hset(this.k.counters, row.holder, JSON.stringify(row.words));
    }
    await this.exec(multi);
  }

  // --- breaker trips ---

  protected async writeBreakerTrips(rows: BreakerTripRow[]): Promise<void> {
    await this.connected();
    const multi = this.client.multi();
    for (const r of rows) multi.hset(this.k.trips, `${r.pool}${SEP}${r.lane}`, JSON.stringify({ tripCount: r.tripCount, lastTripAt: r.lastTripAt }));
    await this.exec(multi);
  }

  protected async readBreakerTrips(): Promise<BreakerTripRow[]> {
    await this.connected();
    const all = await this.client.hgetall(this.k.trips);
    return Object.keys(all)
      .sort(cmp)
      .map((field) => {
        const [pool, lane] = field.split(SEP) as [string, string];
        const v = JSON.parse(all[field]!) as { tripCount: number; lastTripAt: number };
        return { pool, lane, tripCount: v.tripCount, lastTripAt: v.lastTripAt };
      });
  }

  // --- audit ---

  async acquireAuditWriter(owner: string, pid: number, ttlMs: number): Promise<AuditWriterHolder | null> {
    await this.connected();
    const mine = JSON.stringify({ owner, pid, host: hostname() });
    const take = async (displace: string): Promise<AuditWriterHolder | null> => {
      const cur = (await this.client.eval(LEASE_LUA, 1, this.k.auditWriter, owner, mine, String(ttlMs), displace)) as string | null;
      return cur === null ? null : (JSON.parse(cur) as AuditWriterHolder);
    };
    const holder = await take('');
    if (holder === null) return null;
    // A holder on this host whose pid is gone crashed: its lease is taken at once.
    if (!holderAlive(holder)) return take(holder.owner);
    return holder;
  }

  async releaseAuditWriter(owner: string): Promise<void> {
    await this.connected();
    await this.client.eval(RELEASE_LUA, 1, this.k.auditWriter, owner);
  }

  appendAudit(run: string, e: AuditEntry): void {
    // One connection, pipelined: appends reach the server in call order without waiting here.
    const entry = {
      run,
      seq: e.seq,
      ts: e.ts,
      action: e.action,
      resource: e.resource,
      outcome: e.outcome,
      principal: e.principal,
      prev_hash: e.prev_hash,
      hash: e.hash,
    };
    this.client
      .multi()
      .rpush(this.k.auditLog, JSON.stringify(entry))
      .hset(this.k.auditRuns, run, JSON.stringify({ seq: e.seq, hash: e.hash }))
      .exec()
      .then(
        (results) => {
          if (results === null || results.some(([err]) => err)) this.auditWriteFailures++;
        },
        () => {
          this.auditWriteFailures++;
        },
      );
  }

  async readAuditLog(): Promise<{ rows: StoredAuditEntry[]; heads: RunHead[] }> {
    await this.connected();
    // Same connection as the appends: this read is answered after every append issued before it.
    const [log, runs] = await Promise.all([this.client.lrange(this.k.auditLog, 0, -1), this.client.hgetall(this.k.auditRuns)]);
    const rows = log.map((json, i) => ({ ...(JSON.parse(json) as Omit<StoredAuditEntry, 'position'>), position: i + 1 }));
    const heads = Object.entries(runs).map(([run, v]) => ({ run, ...(JSON.parse(v) as { seq: number; hash: string }) }));
    return { rows, heads };
  }

  // --- change feed (several nodes) ---

  async changeVersion(): Promise<number> {
    await this.connected();
    return Number((await this.client.get(this.k.version)) ?? 0);
  }

  async publishConfig(origin: string, document: unknown): Promise<number> {
    await this.connected();
    const multi = this.client.multi().hincrby(this.k.config, 'seq', 1).hset(this.k.config, 'origin', origin, 'document', JSON.stringify(document));
    const results = await multi
      .incr(this.k.version)
      .publish(this.k.changes, 'config')
      .exec()
      .catch((err: Error) => {
        throw err.name === 'ReplyError' ? err : new StoreUnavailableError('valkey', err);
      });
    if (results === null) throw new Error('valkey store: the transaction was aborted');
    for (const [err] of results) if (err) throw err;
    return Number(results[0]![1]);
  }

  async readConfig(): Promise<SharedConfig | null> {
    await this.connected();
    const h = await this.client.hgetall(this.k.config);
    if (h.seq === undefined || h.document === undefined) return null;
    return { seq: Number(h.seq), origin: h.origin ?? '', document: JSON.parse(h.document) as unknown };
  }

  /** SUBSCRIBE on a connection of its own; iovalkey re-subscribes after a reconnect. */
  async watchChanges(onChange: () => void): Promise<() => Promise<void>> {
    await this.connected();
    const sub = this.client.duplicate({ enableOfflineQueue: true, commandTimeout: undefined });
    sub.on('error', () => undefined);
    sub.on('message', (channel: string) => {
      if (channel === this.k.changes) onChange();
    });
    // What changed while this node was not subscribed is picked up after a reconnect.
    let first = true;
    sub.on('ready', () => {
      if (!first) onChange();
      first = false;
    });
    await sub.subscribe(this.k.changes);
    return async () => {
      await sub.quit().catch(() => sub.disconnect());
    };
  }

  protected async closeStore(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect());
  }
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The URL without its password, for messages. */
function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password !== '') u.password = '***';
    return u.toString();
  } catch {
    return '(unparseable url)';
  }
}
