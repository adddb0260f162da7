// The ingress over a real uWS listener, its pipeline replaced by a handler that streams a burst
// far larger than the socket buffers, waits for the drain, and then gives nothing more for a
// while (an upstream that thinks). Once the caller reads again, the whole burst must reach it
// during that wait: uWS does not send what it holds while an onWritable handler is registered,
// so without the ingress's empty cork on drain the burst's last bytes waited for the next write.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { startIngress, type Ingress, type IngressHandlers } from '../../src/worker/ingress.js';
import type { ClientResponse } from '../../src/worker/pipeline/client.js';

// Past both socket buffers: at most 4 MiB to send here (tcp_wmem), and a paused reader's window.
const BURST = Buffer.alloc(16 << 20, 0x61);
const THINK_MS = 1500;

const events: { drainWaited: boolean; drainedAt: number; endAt: number } = { drainWaited: false, drainedAt: 0, endAt: 0 };

function stream(res: ClientResponse): void {
  res.startStream(200, { 'content-type': 'text/event-stream' });
  res.write(BURST);
  // The send happens at the end of the turn; whether it filled the socket is known after it.
  setTimeout(() => {
    let sync = true;
    res.onDrain(() => {
      events.drainWaited = !sync;
      events.drainedAt = performance.now();
      setTimeout(() => {
        events.endAt = performance.now();
        res.end('tail');
      }, THINK_MS);
    });
    sync = false;
  }, 50);
}

const refuse = (): never => {
  throw new Error('not used by this test');
};
const handlers: IngressHandlers = {
  maxBodyBytes: () => 1 << 20,
  onRequest: (_req, res) => {
    stream(res);
    return { onBody: () => undefined, onBodyTooLarge: refuse };
  },
  onBodyTooLarge: refuse,
  onListing: refuse,
  onStoredResponse: refuse,
  onNotFound: refuse,
  onMethodNotAllowed: refuse,
  onUnsupportedEncoding: refuse,
  onDraining: refuse,
  maxInflight: () => 100,
  forwardsCallerCredentials: () => false,
  onShed: refuse,
  healthy: () => true,
  stats: refuse,
  metrics: () => null,
  authToken: refuse,
  signInPage: refuse,
};

let ingress: Ingress;
before(async () => {
  ingress = await startIngress({ host: '127.0.0.1', port: 0 }, handlers);
});
after(() => ingress?.close());

describe('a stream after a full send', () => {
  it('what uWS held back reaches the caller once it reads again, without waiting for the next write', async () => {
    const allAt = await new Promise<number>((resolve, reject) => {
      const socket = connect(ingress.port, '127.0.0.1', () => {
        socket.write('POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}');
        socket.pause(); // the burst fills both socket buffers
        setTimeout(() => socket.resume(), 300);
      });
      let received = 0;
      let burstEnd = Infinity; // where the burst's last byte is: after the head and its chunk's size line
      socket.on('data', (d) => {
        if (received === 0) burstEnd = d.indexOf(`\r\n${BURST.length.toString(16)}\r\n`) + BURST.length.toString(16).length + 4 + BURST.length;
        received += d.length;
        if (received >= burstEnd) {
          socket.destroy();
          resolve(performance.now());
        }
      });
      socket.on('error', reject);
      setTimeout(() => reject(new Error(`${received} bytes in 10 s`)), 10_000).unref();
    });
    assert.ok(events.drainWaited, 'the burst filled the socket: the handler waited for the drain');
    assert.ok(
      events.endAt === 0 || allAt < events.endAt,
      `the burst should arrive before the stream's next write (${THINK_MS} ms after the drain); it arrived ${(allAt - events.drainedAt).toFixed(0)} ms after the drain`,
    );
  });
});
