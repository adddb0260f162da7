// The SSRF policy every outbound connection is checked against at connect time: the
// cloud-metadata denylist (built-in plus security.blocked_metadata_hosts) and the settings that
// let a host through anyway. One policy per thread, set from the compiled config on boot and on
// every apply (main thread and each worker), read at each new connection so an apply takes
// effect without rebuilding the connection pools.
import { metadataDenylist } from '../config/metadata-hosts.js';
import { canonicalHost } from './canonical-host.js';

export interface EgressPolicy {
  /** security.blocked_metadata_hosts */
  blocked: readonly string[];
  /** security.allow_metadata_hosts: denylisted hosts every outbound call may use. */
  allowed: readonly string[];
  /** security.allow_all_metadata: the check is off. */
  allowAll: boolean;
}

export const DEFAULT_EGRESS_POLICY: EgressPolicy = { blocked: [], allowed: [], allowAll: false };

interface PreparedPolicy {
  source: EgressPolicy;
  denied: ReadonlySet<string>;
  allowed: ReadonlySet<string>;
}

let current: PreparedPolicy = prepare(DEFAULT_EGRESS_POLICY);

function prepare(policy: EgressPolicy): PreparedPolicy {
  return {
    source: policy,
    denied: new Set(metadataDenylist(policy.blocked)),
    allowed: new Set(policy.allowed.map(canonicalHost)),
  };
}

/** Adopt a config's policy for this thread (boot, every apply). */
export function setEgressPolicy(policy: EgressPolicy): void {
  if (policy === current.source) return;
  current = prepare(policy);
}

/**
 * Why a connection to `host` (a name or an address) is refused under the thread's policy, or
 * null when it may go. `extraAllowed`: a provider's own allow_metadata_hosts.
 */
export function egressRefusal(host: string, extraAllowed: readonly string[] = []): string | null {
  const policy = current;
  if (policy.source.allowAll) return null;
  const canonical = canonicalHost(host);
  if (!policy.denied.has(canonical)) return null;
  if (isAllowed(canonical, extraAllowed)) return null;
  return `${canonical} is a cloud-metadata endpoint (SSRF guard)`;
}

/** True when `host` is let through by security.allow_metadata_hosts or `extraAllowed`. */
export function isAllowed(host: string, extraAllowed: readonly string[] = []): boolean {
  const canonical = canonicalHost(host);
  if (current.source.allowAll || current.allowed.has(canonical)) return true;
  for (const a of extraAllowed) if (canonicalHost(a) === canonical) return true;
  return false;
}
