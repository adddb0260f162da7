// The data plane's TLS terminator. The uWebSockets.js build we run (BoringSSL inside) cannot do
// what the spec asks of inbound TLS: its SSLApp negotiates no ALPN, and with `ca_file_name`
// it rejects a client certificate from another CA but accepts a client that sends none
// (checked against this build; see test/main/tls/front.test.ts). So TLS ends here, in
// node:tls: ALPN `http/1.1`, and with a client CA `requestCert` + `rejectUnauthorized`, which
// fails the handshake of a client without a valid certificate (only that connection). Each
// accepted connection is piped, as plain bytes, to one worker's uWS listener on a unix socket;
// the workers keep doing all of the HTTP.
import net from 'node:net';
import tls from 'node:tls';
import type { Logger } from '../../shared/log.js';

/** PEM texts, loaded once at startup (rotation needs a restart). */
export interface TlsMaterial {
  /** Certificate chain, leaf first. */
  cert: string;
  /** Unencrypted PKCS#8, PKCS#1 or SEC1. */
  key: string;
  /** When set, clients must present a certificate this bundle signed. */
  clientCa?: string;
}

export interface TlsFrontOptions {
  host: string;
  port: number;
  material: TlsMaterial;
  /** The workers' unix sockets; new connections go round-robin, skipping one that refuses. */
  backends: readonly string[];
  log: Logger;
  /** The header-read timeout (the spec: 30 s where the gateway terminates TLS); tests shorten it. */
  headerReadTimeoutMs?: number;
}

export interface TlsFront {
  /** The TCP port listened on (the real one when 0 was asked for). */
  port: number;
  /** Stop accepting connections; open ones go on until their worker closes them. */
  stopAccepting(): void;
  /** Destroy every connection still open (after the workers drained). */
  close(): void;
  /** Client connections open now, including those still in the handshake. */
  connections(): number;
}

/** A TLS handshake that has not finished by then is dropped (slow-handshake guard). */
const HANDSHAKE_TIMEOUT_MS = 30_000;
/**
 * The spec's header-read timeout under TLS: a connection whose first request head is not whole
 * this long after the handshake is closed (no bytes are answered, as uWS closes a slow head on
 * the plain listener). The front reads that head itself and hands the worker the whole of it at
 * once, so uWS's own idle timeout (about 10 s, fixed in this build) never sees it trickle in.
 */
const HEADER_READ_TIMEOUT_MS = 30_000;
/** A first head still without its blank line past this many bytes is passed on as it is (uWS refuses it). */
const HEAD_BUFFER_MAX_BYTES = 64 * 1024;
const HEAD_END = Buffer.from('\r\n\r\n');
/**
 * How long a decrypted connection waits for a worker socket to accept it when none does
 * (boot, or the only worker restarting) before it is closed.
 */
const BACKEND_WAIT_MS = 5_000;
const BACKEND_RETRY_MS = 50;

export function startTlsFront(opts: TlsFrontOptions): Promise<TlsFront> {
  const { material, backends, log } = opts;
  const headerReadTimeoutMs = opts.headerReadTimeoutMs ?? HEADER_READ_TIMEOUT_MS;
  if (backends.length === 0) throw new Error('the TLS front needs at least one worker socket');
  const mtls = material.clientCa !== undefined;
  const server = tls.createServer({
    cert: material.cert,
    key: material.key,
    ...(mtls ? { ca: material.clientCa, requestCert: true, rejectUnauthorized: true } : {}),
    ALPNProtocols: ['http/1.1'],
    handshakeTimeout: HANDSHAKE_TIMEOUT_MS,
    noDelay: true,
  });
  const open = new Set<net.Socket>();
  let next = 0;

  server.on('connection', (raw: net.Socket) => {
    open.add(raw);
    raw.once('close', () => open.delete(raw));
  });
  // The error names what failed (no certificate, unknown CA, plain HTTP...), never the material.
  server.on('tlsClientError', (err: NodeJS.ErrnoException, socket: tls.TLSSocket) => {
    log.debug({ code: err.code ?? 'unknown', reason: err.message }, 'TLS handshake rejected');
    socket.destroy();
  });
  server.on('secureConnection', (client: tls.TLSSocket) => {
    // Node fails the handshake itself when the certificate is missing; a certificate that
    // fails verification is caught after it, and the socket arrives here already destroyed.
    if (!client.destroyed) readHead(client);
  });

  /** Holds the decrypted bytes until the first request head is whole, then relays; closes a head that is too slow. */
  function readHead(client: tls.TLSSocket): void {
    // The parts as they came (no copy per read: a head sent a byte at a time must cost linear
    // time), and the last three bytes seen, for a blank line split across two reads.
    const parts: Buffer[] = [];
    let bytes = 0;
    let tail = '';
    const timer = setTimeout(() => {
      log.debug('TLS connection closed: its request head was not complete within the header-read timeout');
      client.destroy();
    }, headerReadTimeoutMs);
    const onData = (chunk: Buffer): void => {
      parts.push(chunk);
      bytes += chunk.length;
      const whole = chunk.indexOf(HEAD_END) !== -1 || `${tail}${chunk.toString('latin1', 0, 3)}`.includes('\r\n\r\n');
      tail = `${tail}${chunk.toString('latin1', Math.max(0, chunk.length - 3))}`.slice(-3);
      if (!whole && bytes < HEAD_BUFFER_MAX_BYTES) return;
      clearTimeout(timer);
      client.off('data', onData);
      client.pause();
      relay(client, Buffer.concat(parts, bytes));
    };
    client.on('data', onData);
    client.once('close', () => clearTimeout(timer));
    client.on('error', () => client.destroy());
  }

  /** Pipes `client` (after `head`, what was read of it already) to the next worker socket that accepts it, waiting a little if none does. */
  function relay(client: tls.TLSSocket, head: Buffer): void {
    const deadline = Date.now() + BACKEND_WAIT_MS;
    let backend: net.Socket | null = null;
    // A client gone closes its worker connection, which aborts its request in uWS.
    client.once('close', () => backend?.destroy());

    const attempt = (tried: number): void => {
      if (client.destroyed) return;
      const path = backends[next]!;
      next = (next + 1) % backends.length;
      const socket = net.connect(path);
      backend = socket;
      socket.once('error', () => {
        if (tried + 1 < backends.length) attempt(tried + 1);
        else if (Date.now() < deadline) setTimeout(() => attempt(0), BACKEND_RETRY_MS).unref();
        else {
          log.warn('no worker accepted a TLS connection in time; closing it');
          client.destroy();
        }
      });
      socket.once('connect', () => {
        socket.removeAllListeners('error');
        socket.on('error', () => client.destroy());
        // pipe() ends the client when the worker ends; this covers a close without an end.
        socket.once('close', () => client.end());
        socket.write(head);
        client.pipe(socket);
        socket.pipe(client);
        client.resume();
      });
    };
    attempt(0);
  }

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      server.on('error', (err) => log.error({ err: err.message }, 'TLS listener error'));
      const address = server.address() as net.AddressInfo;
      resolve({
        port: address.port,
        stopAccepting: () => server.close(),
        close() {
          server.close();
          for (const socket of open) socket.destroy();
          open.clear();
        },
        connections: () => open.size,
      });
    });
  });
}
