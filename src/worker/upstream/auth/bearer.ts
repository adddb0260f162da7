// `auth: bearer`: `Authorization: Bearer <key>` (OpenAI and most OpenAI-compatible hosts).
import type { OutgoingRequest, UpstreamAuth } from './upstream-auth.js';

export class BearerAuth implements UpstreamAuth {
  // Built once: the hot path only writes a header.
  readonly #authorization: string;

  constructor(token: string) {
    this.#authorization = `Bearer ${token}`;
  }

  apply(req: OutgoingRequest): boolean {
    req.headers.authorization = this.#authorization;
    return true;
  }

  close(): void {}
}
