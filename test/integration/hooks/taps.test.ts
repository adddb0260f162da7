// Taps at all four stages under concurrent load receive the right events (one per request per
// stage, the same request ids, lanes and dispositions), over a unix socket and a signed
// webhook; a prompt: no tap never sees the prompt.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openaiSdk } from '../../helpers/clients/openai.js';
import { startRouting, type RoutingStack, alphaLanes } from '../routing/routing-stack.js';
import { eventually, HookDir, type HookProcess } from './hook-kit.js';

const REQUESTS = 40;
const SECRET = 'tap-signing-secret-7a1f';

describe('tap hooks at every stage', () => {
  let hookDir: HookDir;
  let stack: RoutingStack;
  let socketTaps: HookProcess;
  let webhookTap: HookProcess;

  before(async () => {
    hookDir = new HookDir('gw-taps-');
    socketTaps = await hookDir.socketGate('taps');
    // A slow tap: it answers each delivery after 1 s; requests must not wait for it.
    webhookTap = await hookDir.webhookTap('webhook', ['--secret', SECRET, '--sleep-ms', '1000']);
    stack = await startRouting(
      (mockUrl) =>
        alphaLanes(mockUrl, ['a'], {
          pools: { chat: { members: [{ model: 'm-a' }] } },
          hooks: {
            't-request': { kind: 'tap', at: 'request', socket: socketTaps.target, global: true },
            't-route': { kind: 'tap', at: 'route', socket: socketTaps.target, global: true },
            't-attempt': { kind: 'tap', at: 'attempt', socket: socketTaps.target, global: true },
            't-completion': { kind: 'tap', at: 'completion', socket: socketTaps.target, prompt: 'ro' },
            't-webhook': { kind: 'tap', at: 'completion', webhook: webhookTap.target, secret: SECRET },
          },
          global_hooks: ['t-completion', 't-webhook'],
        }),
      { workers: 2 },
    );
    // Taps are shed while a hook is not yet connected: wait for the connections.
    await eventually(async () => {
      await openaiSdk(stack.gateway.url).chat.completions.create({ model: 'chat', messages: [{ role: 'user', content: 'warm' }] });
      return socketTaps.received().filter((m) => m.type === 'tap' && m.at === 'completion').length >= 4;
    }, 10_000);
  });

  after(async () => {
    await stack?.close();
    await hookDir?.close();
  });

  it('every stage gets one event per request, with the right fields', async () => {
    const sdk = openaiSdk(stack.gateway.url);
    const seenBefore = new Set(
      socketTaps
        .received()
        .filter((m) => m.type === 'tap')
        .map((m) => m.event.request_id),
    );
    const answers = await Promise.all(
      Array.from({ length: REQUESTS }, (_, i) => sdk.chat.completions.create({ model: 'chat', messages: [{ role: 'user', content: `load ${i}` }] })),
    );
    assert.equal(answers.length, REQUESTS);
    const fresh = () => socketTaps.received().filter((m) => m.type === 'tap' && !seenBefore.has(m.event.request_id));
    const byStage = (at: string) => fresh().filter((m) => m.at === at);
    assert.ok(await eventually(() => ['request', 'route', 'attempt', 'completion'].every((at) => byStage(at).length === REQUESTS)), 'all events arrived');
    const ids = new Set(byStage('request').map((m) => m.event.request_id));
    assert.equal(ids.size, REQUESTS);
    for (const at of ['route', 'attempt', 'completion']) assert.deepEqual(new Set(byStage(at).map((m) => m.event.request_id)), ids, at);
    for (const m of byStage('request')) {
      assert.equal(m.event.pool, 'chat');
      assert.equal(m.event.protocol, 'openai');
      assert.equal(m.event.prompt, undefined, 'prompt: no');
      assert.equal('key_id' in m.event, false, 'user: no');
    }
    for (const m of byStage('attempt')) assert.deepEqual([m.event.lane, m.event.attempt], ['m-a', 1]);
    for (const m of byStage('route')) assert.equal(m.event.lane, 'm-a');
    for (const m of byStage('completion')) {
      assert.equal(m.event.disposition, 'ok');
      assert.equal(typeof m.event.duration_ms, 'number');
      assert.match(JSON.stringify(m.event.prompt), /load \d+/, 'prompt: ro sees the prompt');
    }
  });

  it('a signed webhook tap receives completions (the example checks the signature) and never holds a request', async () => {
    assert.ok(await eventually(() => webhookTap.received().filter((m) => m.type === 'tap' && m.at === 'completion').length >= REQUESTS, 10_000));
    for (const m of webhookTap.received().filter((m) => m.type === 'tap')) assert.equal(m.event.prompt, undefined);
    // Webhook hooks get `configure` at boot, as socket hooks do on connect (issue 46).
    assert.ok(
      webhookTap.received().some((m) => m.type === 'configure'),
      'the webhook was configured at boot',
    );
  });
});
