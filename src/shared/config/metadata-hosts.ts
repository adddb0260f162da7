// The cloud-metadata denylist: hosts that hand out instance credentials to anyone who can make
// the machine send them a request. A provider `base_url` pointing at one would turn the gateway
// into an SSRF relay for those credentials, so config validation refuses it unless allowed
// explicitly, and `gateway --print-metadata-blocklist` prints the enforced set.

/** The built-in set. Each entry is in canonical form (see `normalizeHost`). */
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

/**
 * Canonical form of a host so that spellings compare equal: lower case, no brackets, no
 * trailing dot, IPv4 in dotted form (the URL parser turns `2852039166` or `0xa9fea9fe` into
 * `169.254.169.254`), IPv6 compressed, and IPv4-mapped IPv6 (`::ffff:a9fe:a9fe`) as IPv4.
 */
export function normalizeHost(host: string): string {
  let text = host.trim().toLowerCase();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  if (text.endsWith('.')) text = text.slice(0, -1);
  const isV6 = text.includes(':');
  let canonical: string;
  try {
    canonical = new URL(isV6 ? `http://[${text}]/` : `http://${text}/`).hostname;
  } catch {
    return text;
  }
  if (canonical.startsWith('[')) canonical = canonical.slice(1, -1);
  if (canonical.endsWith('.')) canonical = canonical.slice(0, -1);
  return isV6 ? unmapIPv4(canonical) : canonical;
}

/** `::ffff:a9fe:a9fe` -> `169.254.169.254`; anything else unchanged. */
function unmapIPv4(v6: string): string {
  const match = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(v6);
  if (match === null) return v6;
  const high = parseInt(match[1]!, 16);
  const low = parseInt(match[2]!, 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

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
  for (const host of blocked) out.add(normalizeHost(host));
  return [...out];
}

/**
 * True when a request to `host` must be refused under `policy`, given the provider's own
 * `allow_metadata_hosts`.
 */
export function isDeniedMetadataHost(host: string, policy: MetadataPolicy, providerAllowed: readonly string[] = []): boolean {
  if (policy.allowAll) return false;
  const canonical = normalizeHost(host);
  if (!metadataDenylist(policy.blocked).includes(canonical)) return false;
  for (const allowed of policy.allowed) if (normalizeHost(allowed) === canonical) return false;
  for (const allowed of providerAllowed) if (normalizeHost(allowed) === canonical) return false;
  return true;
}
