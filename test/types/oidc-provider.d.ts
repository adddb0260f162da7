// The few parts of `oidc-provider` (it ships no types) the identity tests use.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  export default class Provider {
    constructor(issuer: string, configuration: unknown);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
