// A provider whose key variable was empty at load: every request on its lanes fails auth
// (401) rather than reaching the upstream with no or a wrong credential.
import type { OutgoingRequest, UpstreamAuth } from './upstream-auth.js';

export class MissingKeyAuth implements UpstreamAuth {
  apply(_req: OutgoingRequest): boolean {
    return false;
  }

  close(): void {}
}
