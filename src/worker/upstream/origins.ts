// One undici Pool per upstream origin, kept across config applies so warm keep-alive
// connections survive an apply. Options follow the spec's limits: up to 1024 connections per
// host, 300 s request timeout, HTTP/1.1 unless configured otherwise.
import { Pool } from 'undici';
import type { CompiledConfig } from '../../shared/config/compiled.js';
import { guardedConnector } from '../../shared/egress/connector.js';

export class UpstreamOrigins {
  private readonly pools = new Map<string, Pool>();
  private optionsKey = '';

  /**
   * The pool for an origin under the current upstream options (made on first use). Its
   * connections go through the SSRF guard; `allowMetadataHosts` is the provider's own allow
   * list (providers sharing an origin with different lists get a pool each).
   */
  get(origin: string, allowMetadataHosts: readonly string[] = []): Pool {
    const key = allowMetadataHosts.length === 0 ? origin : `${origin} ${allowMetadataHosts.join(',')}`;
    let pool = this.pools.get(key);
    if (pool === undefined) {
      pool = new Pool(origin, { ...this.poolOptions, connect: guardedConnector({}, allowMetadataHosts) });
      this.pools.set(key, pool);
    }
    return pool;
  }

  private poolOptions: Pool.Options = {};

  /** Adopt a config's upstream options; pools made under other options are closed gracefully. */
  configure(upstream: CompiledConfig['upstream']): void {
    const key = JSON.stringify(upstream);
    if (key === this.optionsKey) return;
    this.optionsKey = key;
    this.poolOptions = {
      connections: upstream.connectionsPerOrigin,
      pipelining: 1,
      keepAliveTimeout: 30_000,
      headersTimeout: upstream.requestTimeoutMs,
      bodyTimeout: upstream.requestTimeoutMs,
      // HTTP/1.1 by default; h2 only when asked (negotiated by ALPN over TLS: undici 7 has no
      // cleartext h2c, so prior knowledge over plain HTTP falls back to HTTP/1.1).
      allowH2: upstream.h2PriorKnowledge && !upstream.http1Only,
    };
    const old = [...this.pools.values()];
    this.pools.clear();
    for (const pool of old) void pool.close().catch(() => undefined);
  }

  async close(): Promise<void> {
    const all = [...this.pools.values()];
    this.pools.clear();
    await Promise.allSettled(all.map((p) => p.close()));
  }
}
