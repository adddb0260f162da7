// `listen` and `admin_listen` are "host:port"; IPv6 hosts are bracketed ("[::1]:8080").

export interface ListenAddress {
  host: string;
  port: number;
}

const HOST_PORT = /^(?:\[([0-9A-Fa-f:.]+)\]|([^:\s[\]]+)):([0-9]{1,5})$/;

/** What is wrong with `text` as a listen address, or undefined when it is fine. */
export function listenAddressProblem(text: string): string | undefined {
  const match = HOST_PORT.exec(text);
  if (match === null) return `expected "host:port" (IPv6 as "[::1]:port"), got ${JSON.stringify(text)}`;
  const port = Number(match[3]);
  return port > 65535 ? `port ${port} is out of range (0-65535)` : undefined;
}

/** Parses an address that passed config validation; throws (naming the text) otherwise. */
export function parseListenAddress(text: string): ListenAddress {
  const problem = listenAddressProblem(text);
  const match = HOST_PORT.exec(text);
  if (problem !== undefined || match === null) throw new Error(`invalid listen address: ${problem ?? text}`);
  return { host: match[1] ?? match[2]!, port: Number(match[3]) };
}
