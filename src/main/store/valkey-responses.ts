// The valkey store's stored responses, shared by every node on the store. Fixed keys under the
// prefix: the records (hash id -> JSON), their size and key (hash id -> "bytes:keyId"), their
// age and expiry (sorted sets by epoch ms) and the running total. A put and a delete are each
// one Lua script, so one atomic step whatever other nodes do meanwhile.
import type { Redis } from 'iovalkey';
import { RESPONSE_EXPIRED_PER_PUT, type ResponseRow, type ResponseTable } from './store.js';
import type { StoredResponse } from '../../shared/responses/stored-response.js';
import { StoreUnavailableError } from './store-unavailable.js';

// KEYS records, meta, age, expiry, total. `drop` frees a record and its bytes.
const DROP_LUA = `
local function drop(id)
  local m = redis.call('HGET', KEYS[2], id)
  if not m then return end
  redis.call('DECRBY', KEYS[5], tonumber(string.match(m, '^(%d+)')))
  redis.call('HDEL', KEYS[1], id)
  redis.call('HDEL', KEYS[2], id)
  redis.call('ZREM', KEYS[3], id)
  redis.call('ZREM', KEYS[4], id)
end`;

// ARGV id, json, bytes, created ms, expires ms, key id, max bytes, now ms, expired per put.
const PUT_LUA = `${DROP_LUA}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', ARGV[8], 'LIMIT', 0, tonumber(ARGV[9]))) do drop(id) end
drop(ARGV[1])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3] .. ':' .. ARGV[6])
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[1])
redis.call('ZADD', KEYS[4], ARGV[5], ARGV[1])
local total = redis.call('INCRBY', KEYS[5], ARGV[3])
local max = tonumber(ARGV[7])
while total > max do
  local oldest = redis.call('ZRANGE', KEYS[3], 0, 1)
  local victim = oldest[1]
  if victim == ARGV[1] then victim = oldest[2] end
  if not victim then break end
  drop(victim)
  total = tonumber(redis.call('GET', KEYS[5]))
end
return 1`;

// ARGV id, key id: removed only when that key created it.
const DELETE_LUA = `${DROP_LUA}
local m = redis.call('HGET', KEYS[2], ARGV[1])
if not m then return 0 end
local bytes = string.match(m, '^(%d+)')
if string.sub(m, #bytes + 2) ~= ARGV[2] then return 0 end
drop(ARGV[1])
return 1`;

type Scripted = Redis & {
  gwResponsePut(...args: Array<string | number>): Promise<number>;
  gwResponseDelete(...args: Array<string | number>): Promise<number>;
};

export class ValkeyResponses implements ResponseTable {
  private readonly keys: string[];

  constructor(
    private readonly client: Redis,
    prefix: string,
    private readonly connected: () => Promise<void>,
  ) {
    this.keys = [`${prefix}responses:records`, `${prefix}responses:meta`, `${prefix}responses:age`, `${prefix}responses:expiry`, `${prefix}responses:bytes`];
    client.defineCommand('gwResponsePut', { numberOfKeys: 5, lua: PUT_LUA });
    client.defineCommand('gwResponseDelete', { numberOfKeys: 5, lua: DELETE_LUA });
  }

  async write(row: ResponseRow, maxBytes: number, nowMs: number): Promise<void> {
    await this.connected();
    await unavailableOnFailure(
      (this.client as Scripted).gwResponsePut(
        ...this.keys,
        row.id,
        row.json,
        row.bytes,
        row.createdAtMs,
        row.expiresAtMs,
        row.keyId,
        maxBytes,
        nowMs,
        RESPONSE_EXPIRED_PER_PUT,
      ),
    );
  }

  async read(id: string): Promise<StoredResponse | null> {
    await this.connected();
    const json = await unavailableOnFailure(this.client.hget(this.keys[0]!, id));
    return json === null ? null : (JSON.parse(json) as StoredResponse);
  }

  async remove(id: string, keyId: string): Promise<boolean> {
    await this.connected();
    return (await unavailableOnFailure((this.client as Scripted).gwResponseDelete(...this.keys, id, keyId))) === 1;
  }
}

/** A reply error is a bad command (a bug); anything else is the connection. */
function unavailableOnFailure<T>(p: Promise<T>): Promise<T> {
  return p.catch((err: Error) => {
    throw err.name === 'ReplyError' ? err : new StoreUnavailableError('valkey', err);
  });
}
