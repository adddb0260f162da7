// `auth: none`: a local Ollama or vLLM that takes no credential.
import type { OutgoingRequest, UpstreamAuth } from './upstream-auth.js';

export class NoAuth implements UpstreamAuth {
  apply(_req: OutgoingRequest): boolean {
    return true;
  }

  close(): void {}
}
