// The connect hook every undici dispatcher of the gateway is built with. The check runs on the
// address actually connected, not on an earlier lookup, so neither a DNS answer that changes
// between config validation and connect (rebinding) nor a redirect to another host gets past
// it: every new connection, a redirect's included, comes through here.
//  - an address literal (any spelling; the URL parser already made `2852039166` into
//    `169.254.169.254`) is checked before anything is sent;
//  - a name is checked as a name (metadata.google.internal), then resolved by the guard's
//    resolver inside net.connect's `lookup`, and every address it answers is checked before
//    the socket connects to one of them.
// A name allowed by a setting lets its addresses through: allowing metadata.google.internal
// means its answer, 169.254.169.254, for that connection only.
import { isIP, type LookupFunction } from 'node:net';
import { buildConnector } from 'undici';
import { egressRefusal, isAllowed } from './policy.js';
import { resolveEgress } from './resolver.js';

/** Refused by the SSRF guard: nothing was sent to the host. */
export class EgressRefusedError extends Error {
  readonly code = 'EGRESS_REFUSED';
  constructor(
    readonly host: string,
    reason: string,
  ) {
    super(`outbound connection refused: ${reason}`);
    this.name = 'EgressRefusedError';
  }
}

function bare(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/** A net.connect `lookup` that resolves through the guard's resolver and refuses denied answers. */
function guardedLookup(hostname: string, extraAllowed: readonly string[]): LookupFunction {
  const nameAllowed = isAllowed(hostname, extraAllowed);
  return (name, options, callback) => {
    resolveEgress(name).then(
      (answers) => {
        const family = typeof options === 'object' && options !== null ? Number(options.family) : 0;
        const usable = family === 4 || family === 6 ? answers.filter((a) => a.family === family) : answers;
        if (usable.length === 0) {
          const err = Object.assign(new Error(`no address for ${name}`), { code: 'ENOTFOUND' });
          return callback(err, '', 0);
        }
        if (!nameAllowed) {
          for (const a of usable) {
            const reason = egressRefusal(a.address, extraAllowed);
            if (reason !== null) return callback(new EgressRefusedError(hostname, `${hostname} resolves to ${reason}`), '', 0);
          }
        }
        if (typeof options === 'object' && options !== null && options.all === true) {
          (callback as unknown as (err: Error | null, addresses: { address: string; family: number }[]) => void)(null, usable);
        } else callback(null, usable[0]!.address, usable[0]!.family);
      },
      (err: Error) => callback(err as NodeJS.ErrnoException, '', 0),
    );
  };
}

/**
 * A connector for undici's `connect` option: the usual TLS/timeout options plus the guard.
 * `extraAllowed` is the provider's own allow_metadata_hosts (empty elsewhere).
 */
export function guardedConnector(options: buildConnector.BuildOptions = {}, extraAllowed: readonly string[] = []): buildConnector.connector {
  const byName = new Map<string, buildConnector.connector>();
  return (opts, callback) => {
    const host = bare(opts.hostname);
    const refusal = egressRefusal(host, extraAllowed);
    if (refusal !== null) {
      queueMicrotask(() => callback(new EgressRefusedError(host, refusal), null));
      return;
    }
    if (isIP(host) !== 0) {
      // A literal: net.connect skips lookup, and the literal itself was just checked.
      plain(options)(opts, callback);
      return;
    }
    let connector = byName.get(host);
    if (connector === undefined) {
      connector = buildConnector({ ...options, lookup: guardedLookup(host, extraAllowed) } as buildConnector.BuildOptions);
      byName.set(host, connector);
    }
    connector(opts, callback);
  };
}

const plainConnectors = new WeakMap<object, buildConnector.connector>();
function plain(options: buildConnector.BuildOptions): buildConnector.connector {
  let c = plainConnectors.get(options);
  if (c === undefined) {
    c = buildConnector(options);
    plainConnectors.set(options, c);
  }
  return c;
}
