// --safe-mode attaches no external hook: the gate is never asked (the pool routes by SWRR),
// no tap fires, and the admin reads say so instead of probing.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import type { RunningGateway } from '../../helpers/gateway.js';
import { startStack, type Stack } from '../../helpers/clients/stack.js';
import { chatRaw, alphaLanes } from '../routing/routing-stack.js';
import { HookDir, type HookProcess } from './hook-kit.js';

describe('--safe-mode and hooks', () => {
  let hookDir: HookDir;
  let gate: HookProcess;
  let stack: Stack;
  let gw: RunningGateway;

  before(async () => {
    hookDir = new HookDir('gw-hooks-safe-');
    gate = await hookDir.socketGate('gate');
    stack = await startStack({
      build: (mockUrl) =>
        alphaLanes(mockUrl, ['a'], {
          pools: { chat: { members: [{ model: 'm-a' }], hooks: ['g'] } },
          hooks: {
            g: { kind: 'gate', socket: gate.target, settings: { mode: 'reject' } },
            t: { kind: 'tap', at: 'request', socket: gate.target, global: true },
          },
        }),
      workers: 1,
      args: ['--safe-mode'],
    });
    gw = stack.gateway;
  });

  after(async () => {
    await stack?.close();
    await hookDir?.close();
  });

  it('the rejecting gate is not attached: the request is served, and the hook received nothing', async () => {
    assert.equal((await chatRaw(gw, 'chat')).status, 200);
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(gate.received(), []);
  });

  it('admin reads say safe mode', async () => {
    const health = (await (await request(`${gw.adminUrl}/hooks/g/health`)).body.json()) as { reachable: unknown; detail: string };
    assert.equal(health.reachable, null);
    assert.match(health.detail, /safe mode/);
    const status = (await (await request(`${gw.adminUrl}/hooks/g/status`)).body.json()) as { reported: unknown; note: string };
    assert.equal(status.reported, null);
    assert.match(status.note, /safe mode/);
  });
});
