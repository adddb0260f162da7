// The one canonical spelling of a host, which every check of the SSRF guard compares in: config
// validation (--validate, boot, apply, hook registration: provider base_urls, webhooks, IdP and
// token URLs), `--print-metadata-blocklist`, and the connect-time check on the address actually
// connected (connector.ts). Two functions once did this, and the ahead-of-time one missed the
// IPv6 forms that carry an IPv4 address, so `[::a9fe:a9fe]` passed --validate and was refused
// only at connect; one function keeps the two checks the same.
import { isIP } from 'node:net';

/** `a.b.c.d` from the two 16-bit groups that carry it. */
function dotted(highHex: string, lowHex: string): string {
  const high = parseInt(highHex, 16);
  const low = parseInt(lowHex, 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/**
 * Canonical form of a host name or address: lower case, no brackets, no trailing dot; IPv4 in
 * dotted form whatever the spelling (the URL parser turns `2852039166`, `0xa9fea9fe` or
 * `0251.0376.0251.0376` into `169.254.169.254`); IPv6 compressed; and the IPv6 forms that carry
 * an IPv4 address a connection can reach written as that IPv4 address: IPv4-mapped
 * `::ffff:a.b.c.d`, IPv4-compatible `::a.b.c.d` and the NAT64 prefix `64:ff9b::/96`
 * (`[64:ff9b::169.254.169.254]` -> `169.254.169.254`). `::` and `::1` stay what they are.
 */
export function canonicalHost(host: string): string {
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
  if (!isV6 || isIP(canonical) !== 6) return canonical;
  const embedded = /^(::ffff:|64:ff9b::|::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (embedded === null) return canonical;
  // `::1` and `::` are loopback and unspecified, not IPv4-compatible forms (a high group of 0).
  if (embedded[1] === '::' && parseInt(embedded[2]!, 16) === 0) return canonical;
  return dotted(embedded[2]!, embedded[3]!);
}
