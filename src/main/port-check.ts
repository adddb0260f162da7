// The data-plane port must be free before the workers bind it. uWS listens with
// SO_REUSEPORT (so N workers can share one port), which also lets a SECOND gateway process
// of the same user bind the same port silently and take half the connections. A plain bind
// without SO_REUSEPORT fails on a port anyone listens on, so boot refuses loudly instead.
import { createServer } from 'node:net';

export function assertPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => {
      reject(new Error(`listen ${host}:${port} is not available (${err.code ?? err.message}): is another gateway running?`));
    });
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}
