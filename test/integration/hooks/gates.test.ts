// Gate hooks at the routing decision, over a unix socket, against the example gate of the hook
// kit: a gate that orders members, one that abstains, one that rejects (the caller gets the
// 4xx in its protocol; the mock provider sees no request), one that times out (each on_error
// terminal and a fallback chain), one that crashes and comes back (reconnect), and the access
// grants (prompt no / rw, user no).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { openaiSdk } from '../../helpers/clients/openai.js';
import { startRouting, type RoutingStack, alphaLanes, MOSTLY_B } from '../routing/routing-stack.js';
import { eventually, HookDir, type HookProcess } from './hook-kit.js';

const GATES: Record<string, Record<string, unknown>> = {
  'g-order': { settings: { order: ['m-c'] } },
  'g-abstain': { settings: { mode: 'abstain' } },
  'g-reject': { settings: { mode: 'reject', status: 451, message: 'not for this tenant' } },
  'g-slow-first': { on_error: 'first', timeout_ms: 150, settings: { mode: 'sleep', sleep_ms: 3000 } },
  'g-slow-reject': { on_error: 'reject', timeout_ms: 150, settings: { mode: 'sleep', sleep_ms: 3000 } },
  'g-slow-weighted': { on_error: 'weighted', timeout_ms: 150, settings: { mode: 'sleep', sleep_ms: 3000 } },
  'g-slow-nothing': { on_error: 'nothing', timeout_ms: 150, settings: { mode: 'sleep', sleep_ms: 3000 } },
  'g-slow-chain': { on_error: 'g-slow-chain-2', timeout_ms: 150, settings: { mode: 'sleep', sleep_ms: 3000 } },
  'g-slow-chain-2': { on_error: 'g-order', timeout_ms: 150, settings: { mode: 'sleep', sleep_ms: 3000 } },
};

describe('gate hooks over a unix socket', () => {
  let hookDir: HookDir;
  let stack: RoutingStack;
  let shared: HookProcess;
  let crashy: HookProcess;
  let watcher: HookProcess;
  let rewriter: HookProcess;

  before(async () => {
    hookDir = new HookDir('gw-gates-');
    shared = await hookDir.socketGate('shared');
    crashy = await hookDir.socketGate('crashy');
    watcher = await hookDir.socketGate('watcher');
    rewriter = await hookDir.socketGate('rewriter');
    stack = await startRouting((mockUrl) => {
      const hooks: Record<string, unknown> = {};
      for (const [name, def] of Object.entries(GATES)) hooks[name] = { kind: 'gate', socket: shared.target, ...def };
      hooks['g-crashy'] = { kind: 'gate', socket: crashy.target, on_error: 'weighted', timeout_ms: 300, settings: { order: ['m-c'] } };
      hooks['g-watch'] = { kind: 'gate', socket: watcher.target, prompt: 'no', user: 'no', settings: { mode: 'abstain' } };
      hooks['g-rw'] = { kind: 'gate', socket: rewriter.target, prompt: 'rw', user: 'ro', settings: { rewrite: 'REWRITTEN BY GATE' } };
      const pools: Record<string, unknown> = {};
      for (const name of Object.keys(hooks)) pools[`p-${name.slice(2)}`] = { members: MOSTLY_B, hooks: [name] };
      return alphaLanes(mockUrl, ['a', 'b', 'c'], { pools, hooks });
    });
  });

  after(async () => {
    await stack?.close();
    await hookDir?.close();
  });

  async function servedBy(pool: string, prompt = 'hi'): Promise<string> {
    const answer = await openaiSdk(stack.gateway.url).chat.completions.create({ model: pool, messages: [{ role: 'user', content: prompt }] });
    return answer.model;
  }

  it('a gate that orders members: its first choice serves, not SWRR', async () => {
    for (let i = 0; i < 5; i++) assert.equal(await servedBy('p-order'), 'up-c');
  });

  it('a gate that abstains leaves the order to SWRR', async () => {
    assert.equal(await servedBy('p-abstain'), 'up-b');
  });

  it('a gate that rejects: the caller gets the 4xx in its protocol and no upstream is dispatched', async () => {
    const before = stack.mock.stats().requests;
    await assert.rejects(servedBy('p-reject'), (err: any) => {
      assert.equal(err.status, 451);
      assert.match(err.message, /not for this tenant/);
      return true;
    });
    assert.equal(stack.mock.stats().requests, before, 'the mock provider saw no request');
  });

  it('a gate that times out: each on_error terminal applies', async () => {
    assert.equal(await servedBy('p-slow-first'), 'up-a', 'first = members in config order');
    assert.equal(await servedBy('p-slow-weighted'), 'up-b', 'weighted = SWRR');
    assert.equal(await servedBy('p-slow-nothing'), 'up-b', 'nothing = abstain');
    const before = stack.mock.stats().requests;
    await assert.rejects(servedBy('p-slow-reject'), (err: any) => err.status === 503);
    assert.equal(stack.mock.stats().requests, before);
  });

  it('a fallback chain: a timed-out gate falls back to the named gate, and on to the next', async () => {
    assert.equal(await servedBy('p-slow-chain'), 'up-c', 'g-slow-chain -> g-slow-chain-2 -> g-order');
  });

  it('a gate that crashes mid-run: on_error applies while it is away, and it is used again once back', async () => {
    assert.equal(await servedBy('p-crashy'), 'up-c');
    await crashy.stop('SIGKILL');
    assert.equal(await servedBy('p-crashy'), 'up-b', 'on_error weighted while the gate is down');
    crashy = await hookDir.socketGate('crashy');
    assert.ok(await eventually(async () => (await servedBy('p-crashy')) === 'up-c'), 'the gateway reconnected');
  });

  it('prompt: no never receives the prompt; user: no never sees the key id', async () => {
    await servedBy('p-watch', 'secret plans');
    const gates = watcher.received().filter((m) => m.type === 'gate');
    assert.ok(gates.length >= 1);
    for (const m of gates) {
      assert.equal(m.request.prompt, undefined);
      assert.equal('key_id' in m.request, false);
      assert.equal(JSON.stringify(m).includes('secret plans'), false);
    }
  });

  it('a prompt: rw rewrite reaches the upstream; user: ro sees the key id field', async () => {
    await servedBy('p-rw', 'original words');
    const last = await request(`${stack.mock.url}/mock/last-request`);
    const body = ((await last.body.json()) as { body: string }).body;
    assert.match(body, /REWRITTEN BY GATE/);
    assert.doesNotMatch(body, /original words/);
    const gate = rewriter.received().find((m) => m.type === 'gate');
    assert.equal(gate.request.prompt.messages[0].content, 'original words');
    assert.equal(typeof gate.request.key_id, 'string');
  });

  it('each connection starts with configure carrying the settings and settings_version', async () => {
    const configure = rewriter.received().find((m) => m.type === 'configure');
    assert.deepEqual(configure.settings, { rewrite: 'REWRITTEN BY GATE' });
    assert.equal(configure.settings_version, 1);
  });
});
