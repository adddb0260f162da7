// Taps against a hook that has stopped reading: the real socket transport queues up to its bound,
// then sheds; once every tap of a stage is full, PoolTaps.wants() says no (so the request builds
// no event) and each tap counts the shed event. A hook that reads again is fed again.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { SocketTransport } from '../../../src/shared/hooks/socket-transport.js';
import type { CompiledHook } from '../../../src/shared/config/compiled.js';
import type { TapEvent } from '../../../src/shared/hooks/wire.js';
import { PoolTaps } from '../../../src/worker/hooks/pool-taps.js';

const EVENT: TapEvent = { request_id: 'r-1', pool: 'default', protocol: 'openai', model: 'm', stream: false };

function tapHook(name: string): CompiledHook {
  return {
    name,
    kind: 'tap',
    transport: 'socket',
    target: '',
    secret: '',
    prompt: 'no',
    user: 'no',
    priority: 0,
    at: 'request',
    onError: { terminal: 'nothing' },
    timeoutMs: 1000,
    settings: {},
    settingsVersion: 0,
    global: true,
    tapsShedSlot: -1,
  } as CompiledHook;
}

describe('PoolTaps against a hook that stopped reading', () => {
  let dir: string;
  let server: Server;
  let peer: Socket;
  let transport: SocketTransport;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pool-taps-'));
    const path = join(dir, 'hook.sock');
    server = createServer();
    server.listen(path);
    await once(server, 'listening');
    const accepted = once(server, 'connection');
    transport = new SocketTransport('slow', path, { greeting: () => null, reconnect: false });
    transport.warm();
    [peer] = (await accepted) as [Socket];
    peer.pause(); // the hook stops reading: the kernel buffer, then the transport's queue, fill
    while (!transport.isConnected) await new Promise((r) => setTimeout(r, 5));
  });

  after(() => {
    transport.close();
    peer.destroy();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('queues up to the bound, then sheds without building events, and counts every shed', async () => {
    const taps = new PoolTaps([0], [tapHook('slow')], [transport]);
    let built = 0;
    // Fill: each turn lets libuv hand queued bytes to the kernel until its buffer is full too.
    for (let turn = 0; turn < 200 && taps.wants('request'); turn++) {
      while (taps.wants('request')) {
        built++;
        taps.emit('request', { ...EVENT }, null, '');
      }
      await new Promise((r) => setImmediate(r));
    }
    assert.ok(built > 0);
    assert.equal(transport.acceptsTaps(), false);
    const before = transport.dropped;
    let reported = 0;
    transport.onShed = () => reported++;
    for (let i = 0; i < 1000; i++) assert.equal(taps.wants('request'), false);
    transport.onShed = null;
    assert.equal(transport.dropped, before + 1000, 'each refused event is counted as shed');
    assert.equal(reported, 1000, 'and reported to onShed (gateway_hook_taps_shed_total)');

    // The hook reads again: the queue drains and taps are taken again.
    peer.resume();
    for (let i = 0; i < 200 && !transport.acceptsTaps(); i++) await new Promise((r) => setTimeout(r, 5));
    assert.equal(taps.wants('request'), true);
  });

  it('a stage no tap observes is not wanted and sheds nothing', () => {
    const taps = new PoolTaps([0], [tapHook('slow')], [transport]);
    const before = transport.dropped;
    assert.equal(taps.wants('completion'), false);
    assert.equal(transport.dropped, before);
  });
});
