// How the egress guard turns a name into addresses. The default is the system resolver
// (dns.lookup, what net.connect would use); tests put their own in, so "a name that resolves to
// the metadata address" and "a name whose answer changes between validation and connect" are
// shown without a DNS server.
import { lookup } from 'node:dns/promises';

export interface ResolvedAddress {
  address: string;
  /** 4 or 6 */
  family: number;
}

export type EgressResolver = (hostname: string) => Promise<ResolvedAddress[]>;

const systemResolver: EgressResolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

let resolver: EgressResolver = systemResolver;

/** Replace the resolver for this thread (tests); `null` restores the system one. */
export function setEgressResolver(next: EgressResolver | null): void {
  resolver = next ?? systemResolver;
}

export function resolveEgress(hostname: string): Promise<ResolvedAddress[]> {
  return resolver(hostname);
}
