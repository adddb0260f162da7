// Every refusal is an exit like any other: it passes through the request's one end, so it has
// its disposition (GET /stats), one completion tap and one request-log record, whatever step
// made it -- authentication (401), admission (403, 429), the body (400, 413), the target (404),
// the edge (404 path, 405, 413 by content-length, 415). And nothing answered before
// authentication tells a known pool from an unknown one.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { startMockProvider, type MockServer } from '../../../src/mock/server.js';
import { SecretWitness, startGoverned, stopGoverned, type Governed } from '../governance/harness.js';
import { eventually, HookDir, type HookProcess } from '../hooks/hook-kit.js';
import type { Stats } from './routing-stack.js';

const CHAT = { messages: [{ role: 'user', content: 'hi' }] };

interface Exit {
  name: string;
  /** Sends the request; resolves with its status. */
  send(): Promise<number>;
  status: number;
  disposition: string;
  /** Where the disposition is counted: a pool's no-lane row, or the untargeted row. */
  countedOn: 'untargeted' | { pool: string };
}

describe('every refusal ends through the one end, with its disposition, tap and log record', () => {
  let mock: MockServer;
  let g: Governed;
  let taps: HookProcess;
  let hookDir: HookDir;
  const witness = new SecretWitness();
  let secret = '';
  let limited = '';
  const logPath = () => join(hookDir.dir, 'requests.jsonl');

  before(async () => {
    hookDir = new HookDir('gw-refusal-exits-');
    taps = await hookDir.socketGate('taps');
    mock = await startMockProvider({ port: 0 });
    g = await startGoverned(mock.url, witness, {
      workers: 1,
      over: {
        hooks: { 'every-end': { kind: 'tap', at: 'completion', socket: taps.target, global: true } },
        logs: { file: { path: logPath(), max_bytes: 1 << 20, keep: 2 } },
        advanced: { max_body_bytes: 4096 },
      },
    });
    secret = (await g.admin.mint({ name: 'only-default', allowed_pools: ['default'] })).secret;
    limited = (await g.admin.mint({ name: 'one-a-minute', rpm_limit: 1 })).secret;
    // Taps are shed while the hook is not yet connected: wait until a request's end reaches it.
    assert.ok(
      await eventually(async () => {
        await post('/v1/chat/completions', JSON.stringify({ model: 'default', ...CHAT }), { authorization: `Bearer ${secret}` });
        return taps.received().some((m) => m.type === 'tap' && m.at === 'completion');
      }, 10_000),
      'the tap hook is connected',
    );
  });

  after(async () => {
    await stopGoverned(g, witness);
    await mock?.close();
    await hookDir?.close();
  });

  async function post(path: string, body: string, headers: Record<string, string> = {}): Promise<number> {
    const res = await request(`${g.gw.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    await res.body.dump();
    return res.statusCode;
  }

  async function stats(): Promise<Stats> {
    const res = await request(`${g.gw.url}/stats`, { headers: { authorization: `Bearer ${secret}` } });
    return (await res.body.json()) as Stats;
  }

  function countOf(s: Stats, exit: Exit): number {
    if (exit.countedOn === 'untargeted') return s.untargeted[exit.disposition] ?? 0;
    const name = exit.countedOn.pool;
    return s.pools.find((p) => p.name === name)!.unrouted[exit.disposition] ?? 0;
  }

  function records(): any[] {
    if (!existsSync(logPath())) return [];
    return readFileSync(logPath(), 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l));
  }

  const bearer = () => ({ authorization: `Bearer ${secret}` });
  const chat = (model: string) => JSON.stringify({ model, ...CHAT });
  const exits: Exit[] = [
    { name: 'no key (401)', send: () => post('/v1/chat/completions', chat('default')), status: 401, disposition: 'unauthenticated', countedOn: 'untargeted' },
    {
      name: 'a bad key (401)',
      send: () => post('/v1/chat/completions', chat('default'), { authorization: 'Bearer not-a-key' }),
      status: 401,
      disposition: 'unauthenticated',
      countedOn: 'untargeted',
    },
    {
      name: 'a pool outside allowed_pools (403)',
      send: () => post('/v1/chat/completions', chat('pool-anthropic'), bearer()),
      status: 403,
      disposition: 'forbidden',
      countedOn: { pool: 'pool-anthropic' },
    },
    {
      name: 'over the key rpm_limit (429)',
      send: async () => {
        await post('/v1/chat/completions', chat('pool-openai'), { authorization: `Bearer ${limited}` });
        return post('/v1/chat/completions', chat('pool-openai'), { authorization: `Bearer ${limited}` });
      },
      status: 429,
      disposition: 'rate_limited',
      countedOn: { pool: 'pool-openai' },
    },
    {
      name: 'a body that is not JSON (400)',
      send: () => post('/v1/chat/completions', '{"model":', bearer()),
      status: 400,
      disposition: 'invalid_request',
      countedOn: 'untargeted',
    },
    {
      name: 'an unknown model (404)',
      send: () => post('/v1/chat/completions', chat('no-such-pool'), bearer()),
      status: 404,
      disposition: 'invalid_request',
      countedOn: 'untargeted',
    },
    {
      name: 'a content-length over the cap (413)',
      send: () => post('/v1/chat/completions', 'x'.repeat(5000), bearer()),
      status: 413,
      disposition: 'invalid_request',
      countedOn: 'untargeted',
    },
    {
      name: 'a chunked body that grows over the cap (413)',
      send: async () => {
        const res = await request(`${g.gw.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...bearer() },
          body: Readable.from([Buffer.alloc(3000, 0x20), Buffer.alloc(3000, 0x20)]),
        });
        await res.body.dump();
        return res.statusCode;
      },
      status: 413,
      disposition: 'invalid_request',
      countedOn: 'untargeted',
    },
    {
      name: 'a content type that is not JSON (415)',
      send: () => post('/v1/chat/completions', chat('default'), { ...bearer(), 'content-type': 'text/plain' }),
      status: 415,
      disposition: 'invalid_request',
      countedOn: 'untargeted',
    },
    {
      name: 'an unknown path (404)',
      send: () => post('/v1/no/such/route', chat('default'), bearer()),
      status: 404,
      disposition: 'invalid_request',
      countedOn: 'untargeted',
    },
    {
      name: 'a known path with the wrong method (405)',
      send: async () => {
        const res = await request(`${g.gw.url}/v1/chat/completions`, { method: 'GET', headers: bearer() });
        await res.body.dump();
        return res.statusCode;
      },
      status: 405,
      disposition: 'invalid_request',
      countedOn: 'untargeted',
    },
  ];

  for (const exit of exits) {
    it(exit.name, async () => {
      const before = await stats();
      const tapsBefore = taps.received().filter((m) => m.type === 'tap' && m.at === 'completion').length;
      const recordsBefore = records().length;
      assert.equal(await exit.send(), exit.status);
      const after = await stats();
      assert.equal(countOf(after, exit) - countOf(before, exit), 1, `one ${exit.disposition} counted`);
      const completions = () =>
        taps
          .received()
          .filter((m) => m.type === 'tap' && m.at === 'completion')
          .slice(tapsBefore);
      assert.ok(
        await eventually(() => completions().some((m) => m.event.disposition === exit.disposition), 5_000),
        `a completion tap with disposition ${exit.disposition}`,
      );
      assert.ok(
        await eventually(() => records().some((r, i) => i >= recordsBefore && r.disposition === exit.disposition && r.status === exit.status), 5_000),
        'a request-log record',
      );
    });
  }

  it("a global tap sees a direct route's request too", async () => {
    const before = taps.received().length;
    assert.equal(await post('/mock-openai/up-openai', chat('x'), bearer()), 403, 'the key may use `default` only');
    const all = (await g.admin.mint({ name: 'every-pool' })).secret;
    assert.equal(await post('/mock-openai/up-openai', chat('x'), { authorization: `Bearer ${all}` }), 200);
    const seen = () =>
      taps
        .received()
        .slice(before)
        .filter((m) => m.type === 'tap' && m.at === 'completion' && m.event.pool === '');
    assert.ok(await eventually(() => seen().some((m) => m.event.lane === 'lane-openai' && m.event.disposition === 'ok'), 5_000));
    assert.ok(seen().some((m) => m.event.disposition === 'forbidden'));
  });

  it('before authentication an unknown pool and a known one are refused alike (no enumeration)', async () => {
    const known = await request(`${g.gw.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: chat('default') });
    const unknown = await request(`${g.gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: chat('no-such-pool'),
    });
    assert.equal(known.statusCode, 401);
    assert.equal(unknown.statusCode, 401);
    assert.equal(await known.body.text(), await unknown.body.text());
    for (const path of ['/no-such-provider/some-model', '/mock-openai/no-such-model']) {
      const res = await request(`${g.gw.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: chat('x') });
      assert.equal(res.statusCode, 401, path);
      await res.body.dump();
    }
  });

  it('a refused caller is answered before its body is read, and the connection is closed', async () => {
    // A body promised and only begun: the 401 comes back without waiting for the rest.
    const res = await request(`${g.gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': '4000' },
      body: Readable.from(
        (async function* () {
          yield Buffer.from('{"model":"default"');
          await new Promise(() => undefined); // never: the answer must come without the rest
        })(),
      ),
    });
    assert.equal(res.statusCode, 401);
    assert.equal(res.headers.connection, 'close');
    await res.body.dump();
  });
});
