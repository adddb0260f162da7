// A TCP proxy on 127.0.0.1 whose faults the test sets: `pass` forwards, `cut` drops every
// connection and refuses new ones (the store gone), `delay` holds each chunk for `delayMs`,
// `reset` resets the open connections once (RST) and goes on forwarding new ones.
// `drop-replies` forwards what the client sends and drops what the server answers: the server
// commits, the client never hears it (a COMMIT whose reply is lost). `blackhole` drops every
// byte both ways on open connections and takes new ones without ever answering (a host whose
// packets vanish: nothing is refused, nothing comes back).
import net from 'node:net';

type FaultMode = 'pass' | 'cut' | 'delay' | 'drop-replies' | 'blackhole';

export interface FaultProxy {
  port: number;
  set(mode: FaultMode, delayMs?: number): void;
  /** RST every open connection (new ones are forwarded as the mode says). */
  reset(): void;
  close(): Promise<void>;
}

export async function startFaultProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<FaultProxy> {
  let mode: FaultMode = 'pass';
  let delayMs = 0;
  const open = new Set<net.Socket>();
  const relay = (from: net.Socket, to: net.Socket, replies: boolean): void => {
    from.on('data', (chunk) => {
      if (mode === 'delay') setTimeout(() => to.write(chunk), delayMs);
      else if (mode === 'pass' || (mode === 'drop-replies' && !replies)) to.write(chunk);
    });
    from.on('close', () => to.destroy());
    from.on('error', () => to.destroy());
  };
  const server = net.createServer((client) => {
    if (mode === 'cut') {
      client.resetAndDestroy();
      return;
    }
    if (mode === 'blackhole') {
      open.add(client);
      client.on('close', () => open.delete(client));
      client.on('error', () => undefined);
      client.on('data', () => undefined);
      return;
    }
    const upstream = net.connect(targetPort, targetHost);
    open.add(client);
    open.add(upstream);
    client.on('close', () => open.delete(client));
    upstream.on('close', () => open.delete(upstream));
    relay(client, upstream, false);
    relay(upstream, client, true);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  const resetAll = (): void => {
    for (const s of open) s.resetAndDestroy();
    open.clear();
  };
  return {
    port,
    set(next, ms = 0) {
      mode = next;
      delayMs = ms;
      if (next === 'cut') resetAll();
    },
    reset: resetAll,
    close: () =>
      new Promise<void>((resolve) => {
        resetAll();
        server.close(() => resolve());
      }),
  };
}
