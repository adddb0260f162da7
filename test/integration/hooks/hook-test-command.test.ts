// `gateway hook-test <socket|url>`: sends describe and status and prints what came back, over
// both transports, against the example hooks; exit 1 when the hook does not answer.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runCli } from '../../helpers/gateway.js';
import { HookDir, type HookProcess } from './hook-kit.js';

describe('gateway hook-test', () => {
  let hookDir: HookDir;
  let gate: HookProcess;
  let tap: HookProcess;
  before(async () => {
    hookDir = new HookDir('gw-hook-test-');
    gate = await hookDir.socketGate('gate');
    tap = await hookDir.webhookTap('tap', ['--secret', 's3cret']);
  });
  after(async () => {
    await hookDir?.close();
  });

  it('a socket hook: describe and status answered, exit 0', async () => {
    const { code, stdout } = await runCli(['hook-test', gate.target]);
    assert.equal(code, 0);
    const lines = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.equal(lines[0].sent, 'describe');
    assert.equal(lines[0].reply.name, 'example-socket-gate');
    assert.equal(lines[1].sent, 'status');
    assert.equal(lines[1].reply.type, 'status');
  });

  it('a signed webhook: answered with the right secret, refused (exit 1) with a wrong one', async () => {
    assert.equal((await runCli(['hook-test', tap.target, '--secret', 's3cret'])).code, 0);
    const wrong = await runCli(['hook-test', tap.target, '--secret', 'nope']);
    assert.equal(wrong.code, 1);
    assert.match(wrong.stdout, /HTTP 401/);
  });

  it('nobody listening: exit 1 with the reason', async () => {
    const { code, stdout } = await runCli(['hook-test', join(hookDir.dir, 'nobody.sock'), '--timeout-ms', '500']);
    assert.equal(code, 1);
    assert.match(stdout, /error/);
  });
});
