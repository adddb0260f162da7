// The cloud-metadata denylist: hosts that hand out instance credentials to anyone who can make
// the machine send them a request. A provider `base_url` pointing at one would turn the gateway
// into an SSRF relay for those credentials, so config validation refuses it unless allowed
// explicitly, and `gateway --print-metadata-blocklist` prints the enforced set.
import { canonicalHost } from '../egress/canonical-host.js';

/** The built-in set. Each entry is in canonical form (see `canonicalHost`). */
export const BUILTIN_METADATA_HOSTS: readonly string[] = [
  // IMDS link-local address shared by AWS EC2, GCP, Azure, OCI, DigitalOcean, OpenStack, Hetzner.
  '169.254.169.254',
  // AWS EC2 IMDS over IPv6 (Nitro instances).
  'fd00:ec2::254',
  // AWS ECS task metadata and container credentials endpoint.
  '169.254.170.2',
  // AWS EKS Pod Identity agent, IPv4 and IPv6.
  '169.254.170.23',
  'fd00:ec2::23',
  // AWS hostname of the EC2 IMDS.
  'instance-data',
  'instance-data.ec2.internal',
  // Google Cloud metadata server names.
  'metadata.google.internal',
  'metadata.goog',
  // Azure WireServer (host agent channel, hands out certificates and extension settings).
  '168.63.129.16',
  // Alibaba Cloud ECS metadata service.
  '100.100.100.200',
  // Oracle Cloud Classic metadata service.
  '192.0.0.192',
];

export interface MetadataPolicy {
  /** Extra hosts to deny (`security.blocked_metadata_hosts`). */
  blocked: readonly string[];
  /** Hosts let through anyway (`security.allow_metadata_hosts`). */
  allowed: readonly string[];
  /** `security.allow_all_metadata`: turn the check off. */
  allowAll: boolean;
}

/** The enforced denylist: built-in plus configured extras, canonical, without duplicates. */
export function metadataDenylist(blocked: readonly string[]): string[] {
  const out = new Set<string>(BUILTIN_METADATA_HOSTS);
  for (const host of blocked) out.add(canonicalHost(host));
  return [...out];
}

/**
 * True when a request to `host` must be refused under `policy`, given the provider's own
 * `allow_metadata_hosts`.
 */
export function isDeniedMetadataHost(host: string, policy: MetadataPolicy, providerAllowed: readonly string[] = []): boolean {
  if (policy.allowAll) return false;
  const canonical = canonicalHost(host);
  if (!metadataDenylist(policy.blocked).includes(canonical)) return false;
  for (const allowed of policy.allowed) if (canonicalHost(allowed) === canonical) return false;
  for (const allowed of providerAllowed) if (canonicalHost(allowed) === canonical) return false;
  return true;
}
