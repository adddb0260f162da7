// Inbound TLS at boot: when the config has a `tls` block, the data port is served by the TLS
// front (front.ts) and every worker listens on its own unix socket in a private folder
// instead. Both are set up once, for the life of the process: a config apply never re-creates
// listeners, so changed TLS settings take effect on restart (`PUT /config/settings`, then
// `POST /restart`).
import type { Logger } from '../../shared/log.js';
import type { ResolvedSecrets } from '../config/load-result.js';
import { startTlsFront, type TlsFront, type TlsMaterial } from './front.js';
import { IngressSockets } from './ingress-sockets.js';

export class TlsListener {
  private front: TlsFront | null = null;

  private constructor(
    private readonly material: TlsMaterial,
    private readonly sockets: IngressSockets,
    private readonly workerCount: number,
    private readonly log: Logger,
  ) {}

  /**
   * Listens with TLS on the data port, or returns null when the config has no `tls` block.
   * The PEM texts are the resolved secrets `tls.cert`, `tls.key`, `tls.client_ca` (checked at
   * load). Start it before the workers: a connection that arrives first waits for them.
   */
  static async open(secrets: ResolvedSecrets, workerCount: number, host: string, port: number, log: Logger): Promise<TlsListener | null> {
    const cert = secrets.get('tls.cert');
    const key = secrets.get('tls.key');
    if (cert === undefined || key === undefined) return null;
    const clientCa = secrets.get('tls.client_ca');
    const material: TlsMaterial = { cert, key, ...(clientCa === undefined ? {} : { clientCa }) };
    const listener = new TlsListener(material, await IngressSockets.create(workerCount), workerCount, log);
    try {
      await listener.listen(host, port);
    } catch (err) {
      listener.close();
      throw err;
    }
    return listener;
  }

  /** The unix socket worker `workerId` listens on (pass to the worker pool). */
  readonly workerSocket = (workerId: number): string => this.sockets.pathOf(workerId);

  private async listen(host: string, port: number): Promise<void> {
    const backends = Array.from({ length: this.workerCount }, (_, id) => this.sockets.pathOf(id));
    this.front = await startTlsFront({ host, port, material: this.material, backends, log: this.log });
    this.log.info({ mtls: this.material.clientCa !== undefined, socket_dir: this.sockets.dir }, 'data plane served over TLS');
  }

  /** Stop taking new connections (before the workers drain). */
  stopAccepting(): void {
    this.front?.stopAccepting();
  }

  /** Close what is left and remove the socket folder (after the workers drained). */
  close(): void {
    this.front?.close();
    this.sockets.remove();
  }
}
