// `auth: header`: a named header carries the key (anthropic `x-api-key`, gemini
// `x-goog-api-key`, Azure `api-key`).
import type { OutgoingRequest, UpstreamAuth } from './upstream-auth.js';

export class HeaderAuth implements UpstreamAuth {
  readonly #name: string;
  readonly #value: string;

  constructor(header: string, value: string) {
    const name = header.trim().toLowerCase();
    if (!/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(name)) {
      throw new Error(`upstream auth header: invalid header name ${JSON.stringify(header)}`);
    }
    this.#name = name;
    this.#value = value;
  }

  apply(req: OutgoingRequest): boolean {
    req.headers[this.#name] = this.#value;
    return true;
  }

  close(): void {}
}
