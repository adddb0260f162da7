// Overview: the binary, uptime, config version, workers, the audit store, and the request and
// error rates a minute from the live member counters (two reads apart; no Prometheus).
import { useRef } from 'preact/hooks';
import { api, must } from '../api.js';
import { n, ms, seconds } from '../format.js';
import { html, useLoad, ErrorNotice } from '../ui.js';
import { livePools } from './live.js';

const REFRESH_MS = 5000;

interface Sample {
  atMs: number;
  ok: number;
  err: number;
}

export function Overview() {
  const previous = useRef<Sample | null>(null);
  const { data, error } = useLoad(
    async () => {
      const [info, pools] = await Promise.all([must(api.GET('/info')), livePools()]);
      // A lane's counters are lane-global: a lane in two pools is counted once.
      const members = [...new Map(pools.flatMap((p) => p.members.map((m) => [m.model, m] as const))).values()];
      const now: Sample = { atMs: Date.now(), ok: 0, err: 0 };
      for (const m of members) {
        now.ok += m.ok;
        now.err += m.err;
      }
      const before = previous.current;
      previous.current = now;
      const perMinute = (a: number, b: number) =>
        before === null || now.atMs === before.atMs ? null : Math.max(0, ((a - b) * 60_000) / (now.atMs - before.atMs));
      const latencies = members
        .map((m) => m.latency_ms)
        .filter((v): v is number => v !== null)
        .sort((a, b) => a - b);
      const pick = (q: number) => (latencies.length === 0 ? null : latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!);
      return {
        info,
        now,
        requestsPerMinute: before === null ? null : perMinute(now.ok + now.err, before.ok + before.err),
        errorsPerMinute: before === null ? null : perMinute(now.err, before.err),
        p50: pick(0.5),
        p99: pick(0.99),
        unusable: new Set(pools.flatMap((p) => p.members.filter((m) => !m.usable).map((m) => m.model))).size,
      };
    },
    [],
    REFRESH_MS,
  );
  return html`<section aria-labelledby="overview-title">
    <h1 id="overview-title">Overview</h1>
    <${ErrorNotice} error=${error} />
    ${
      data === null
        ? html`<p>Loading…</p>`
        : html`<dl class="facts">
        <dt>Version</dt><dd id="version">${data.info.version}</dd>
        <dt>Uptime</dt><dd>${seconds(data.info.uptime_seconds)}</dd>
        <dt>Config version</dt><dd id="config-version">${data.info.config_version}</dd>
        <dt>Workers</dt><dd>${data.info.workers}</dd>
        <dt>Audit store</dt><dd>${data.info.audit_durable}</dd>
        <dt>Topology</dt><dd>${data.info.topology.pools} pools, ${data.info.topology.models} models, ${data.info.topology.providers} providers</dd>
        <dt>Requests since boot</dt><dd>${n(data.now.ok)} ok, ${n(data.now.err)} errors</dd>
        <dt>Requests a minute</dt><dd>${data.requestsPerMinute === null ? 'measuring…' : n(data.requestsPerMinute)}</dd>
        <dt>Errors a minute</dt><dd>${data.errorsPerMinute === null ? 'measuring…' : n(data.errorsPerMinute)}</dd>
        <dt>Member latency p50 / p99</dt><dd>${ms(data.p50)} / ${ms(data.p99)} <span class="muted">(over the members' latency EWMAs)</span></dd>
        <dt>Lanes unusable in some pool</dt><dd class=${data.unusable > 0 ? 'bad' : 'good'}>${data.unusable}</dd>
      </dl>`
    }
  </section>`;
}
