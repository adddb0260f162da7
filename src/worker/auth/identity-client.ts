// The worker's side of identity requests only main can answer (it mints keys and writes the
// store): POST /auth/token, and the first request of an IdP identity under auth.chain.
import type { MessagePort } from 'node:worker_threads';
import { encodeMessage, type IdentityRequest } from '../../shared/messages.js';

const TIMEOUT_MS = 15_000;

export interface IdentityAnswer {
  status: number;
  body: string;
  /** Set for the sign-in page's answers (HTML, redirects); JSON otherwise. */
  headers?: Record<string, string>;
}

export class IdentityClient {
  private nextId = 1;
  private readonly pending = new Map<number, (answer: IdentityAnswer) => void>();

  constructor(
    private readonly port: MessagePort,
    private readonly workerId: number,
  ) {}

  request(request: IdentityRequest): Promise<IdentityAnswer> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        resolve({ status: 503, body: JSON.stringify({ error: { message: 'the identity request timed out', type: 'server_error', param: null, code: null } }) });
      }, TIMEOUT_MS);
      this.pending.set(id, (answer) => {
        clearTimeout(timer);
        resolve(answer);
      });
      this.port.postMessage(encodeMessage({ t: 'identity-req', workerId: this.workerId, id, request }));
    });
  }

  /** main's identity-res. */
  settle(id: number, status: number, body: string, headers: Record<string, string> | undefined): void {
    const done = this.pending.get(id);
    this.pending.delete(id);
    done?.({ status, body, headers });
  }
}
