// The admin listener's body limits over raw sockets: a body past the cap (declared by
// content-length, or streamed) gets 413 with `Connection: close` and the connection ends there,
// instead of a keep-alive connection left hanging; a body past the JSON limits (nesting depth,
// member count) is 400 before it is parsed, audited as rejected.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { adminFixture, type AdminFixture } from './setup.js';

const CAP = 8 * 1024 * 1024;

/** A raw keep-alive connection to the admin listener: what came back, and when it closed. */
class Raw {
  readonly socket: Socket;
  received = '';
  readonly closed: Promise<void>;
  constructor(port: number) {
    this.socket = connect(port, '127.0.0.1');
    this.socket.on('data', (d: Buffer) => (this.received += d.toString('latin1')));
    this.socket.on('error', () => undefined);
    this.closed = new Promise((resolve) => this.socket.once('close', () => resolve()));
  }
  /** Resolves with the response head once it has arrived. */
  async head(): Promise<string> {
    for (let i = 0; i < 1000 && !this.received.includes('\r\n\r\n'); i++) await new Promise((r) => setTimeout(r, 10));
    return this.received.slice(0, this.received.indexOf('\r\n\r\n'));
  }
}

describe('admin listener body limits (issue 46)', () => {
  let f: AdminFixture;
  let port: number;
  before(async () => {
    f = await adminFixture();
    port = Number(new URL(f.gw.adminUrl).port);
  });
  after(async () => {
    await f.close();
  });

  const headers = (extra: string) =>
    `POST /api/v1/admin/keys HTTP/1.1\r\nHost: admin\r\nx-admin-token: ${f.token}\r\nContent-Type: application/json\r\n${extra}\r\n`;

  it('a declared content-length past the cap: 413 at once, Connection: close, the connection ends', async () => {
    const raw = new Raw(port);
    raw.socket.write(headers(`Content-Length: ${CAP + 1}\r\n`));
    const head = await raw.head();
    assert.match(head, /^HTTP\/1\.1 413 /);
    assert.match(head, /\r\nconnection: close/i);
    await raw.closed;
    assert.match(raw.received, /"code":"invalid_request"/);
  });

  it('a streamed (chunked) body past the cap: 413, Connection: close, the connection ends', async () => {
    const raw = new Raw(port);
    raw.socket.write(headers('Transfer-Encoding: chunked\r\n'));
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let sent = 0;
    while (!raw.received.includes('\r\n\r\n') && sent < 2 * CAP && !raw.socket.destroyed) {
      raw.socket.write(`${chunk.length.toString(16)}\r\n`);
      raw.socket.write(chunk);
      raw.socket.write('\r\n');
      sent += chunk.length;
      await new Promise((r) => setImmediate(r));
    }
    const head = await raw.head();
    assert.match(head, /^HTTP\/1\.1 413 /);
    assert.match(head, /\r\nconnection: close/i);
    await raw.closed;
  });

  it('a body nested past advanced.max_json_depth is 400 before it is parsed, and audited as rejected', async () => {
    const nested = `{"name":${'['.repeat(5000)}${']'.repeat(5000)},"allowed_pools":["*"]}`;
    const res = await fetch(`${f.gw.adminUrl}/keys`, {
      method: 'POST',
      headers: { 'x-admin-token': f.token, 'content-type': 'application/json' },
      body: nested,
    });
    assert.equal(res.status, 400);
    const body = (await res.json()) as { error: { code: string; message: string } };
    assert.equal(body.error.code, 'invalid_request');
    assert.match(body.error.message, /max_json_depth/);
    const audit = (await f.admin.GET('/audit', { params: { query: { limit: 1 } } })).data!.items[0]!;
    assert.deepEqual([audit.action, audit.outcome], ['key.create', 'rejected']);
  });
});
