// --safe-mode attaches no external hook: the gate is never asked (the pool routes by SWRR),
// no tap fires, and the admin reads say so instead of probing.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { startMockProvider, type MockServer } from '../../../src/mock/server.js';
import { startGateway, writeConfig, type RunningGateway } from '../../helpers/gateway.js';
import { chatRaw, mockProvider } from '../routing/routing-stack.js';
import { startSocketGate, type HookProcess } from './hook-kit.js';

describe('--safe-mode and hooks', () => {
  let dir: string;
  let gate: HookProcess;
  let mock: MockServer;
  let gw: RunningGateway;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gw-hooks-safe-'));
    gate = await startSocketGate(dir, 'gate');
    mock = await startMockProvider({ port: 0 });
    const files = writeConfig(
      {
        auth: { chain: [], admin_auth: [], upstream_credentials: 'own' },
        store: { module: 'memory' },
        config: { locked: true },
        models: { 'm-a': { provider: 'alpha', upstream_model: 'up-a' } },
        pools: { chat: { members: [{ model: 'm-a' }], hooks: ['g'] } },
        hooks: { g: { kind: 'gate', socket: gate.target, settings: { mode: 'reject' } }, t: { kind: 'tap', at: 'request', socket: gate.target, global: true } },
      },
      { alpha: mockProvider(mock.url) },
    );
    gw = await startGateway(files, { workers: 1, args: ['--safe-mode'] });
  });

  after(async () => {
    await gw?.stop();
    await mock?.close();
    await gate?.stop();
    rmSync(dir, { recursive: true, force: true });
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
