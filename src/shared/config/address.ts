// `listen` and `admin_listen` are "host:port"; IPv6 hosts are bracketed ("[::1]:8080").

export interface ListenAddress { host: string; port: number }

/** The address, or a message saying what is wrong with it. */
export function parseListenAddress(text: string): ListenAddress | { error: string } {
  const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([^:\s[\]]+)):([0-9]{1,5})$/.exec(text);
  if (match === null) return { error: `expected "host:port" (IPv6 as "[::1]:port"), got ${JSON.stringify(text)}` };
  const port = Number(match[3]);
  if (port > 65535) return { error: `port ${port} is out of range (0-65535)` };
  return { host: match[1] ?? match[2], port };
}
