// The side load of the metrics scenarios: a Prometheus-like scraper inside the bench process
// that GETs the gateway's /metrics once a second for as long as the gateway row runs, and
// reports what each scrape cost (its latency and size) in the row's note. It starts from the
// scenario's gatewayConfig (the listen address is in the config) and stops in gatewayNote.
import { request } from 'undici';
import type { GatewayConfigFiles } from './scenario.js';

const SCRAPE_INTERVAL_MS = 1_000;

export class MetricsScraper {
  private timer: NodeJS.Timeout | null = null;
  private readonly latenciesMs: number[] = [];
  private bytes = 0;
  private failures = 0;
  /** Why each failed scrape failed (status or error code), for the note. */
  private readonly failureReasons = new Map<string, number>();
  /** Until the gateway first answers, a refused connection means it is still starting. */
  private answered = false;
  private busy = false;

  constructor(private readonly authorization: string | null) {}

  /** Adds the prometheus export to `files` and starts scraping its listen address. */
  attach(files: GatewayConfigFiles): void {
    files.gateway.export = { prom: { module: 'prometheus', settings: { buffer_seconds: 60 } } };
    const url = `http://${String(files.gateway.listen)}/metrics`;
    this.stop();
    this.latenciesMs.length = 0;
    this.failures = 0;
    this.failureReasons.clear();
    this.answered = false;
    this.timer = setInterval(() => void this.scrape(url), SCRAPE_INTERVAL_MS);
    this.timer.unref();
  }

  private async scrape(url: string): Promise<void> {
    if (this.busy) return; // a scrape slower than the interval is not stacked (Prometheus does the same)
    this.busy = true;
    const startedMs = performance.now();
    try {
      const res = await request(url, { headers: this.authorization === null ? {} : { authorization: this.authorization } });
      const body = await res.body.text();
      this.answered = true;
      if (res.statusCode !== 200) this.fail(`status ${res.statusCode}`);
      else {
        this.latenciesMs.push(performance.now() - startedMs);
        this.bytes = body.length;
      }
    } catch (e) {
      // The timer starts with the config, before the gateway listens: a refusal until it has
      // first answered is its start, not a failed scrape (Prometheus would show it as down).
      const code = (e as { code?: string }).code ?? (e as Error).message;
      if (this.answered || code !== 'ECONNREFUSED') this.fail(code);
    } finally {
      this.busy = false;
    }
  }

  private fail(reason: string): void {
    this.failures++;
    this.failureReasons.set(reason, (this.failureReasons.get(reason) ?? 0) + 1);
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  /** Stops scraping; one line on what the scrapes cost. */
  async note(): Promise<string | null> {
    this.stop();
    const sorted = [...this.latenciesMs].sort((a, b) => a - b);
    if (sorted.length === 0) return `no successful /metrics scrape (${this.failures} failed)`;
    const at = (q: number): string => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(1);
    return `${sorted.length} scrapes of /metrics at 1/s (warmup included): p50 ${at(0.5)} ms, max ${sorted[sorted.length - 1]!.toFixed(1)} ms, ${Math.round(this.bytes / 1024)} KiB each${this.failures > 0 ? `, ${this.failures} failed (${[...this.failureReasons].map(([r, n]) => `${n}× ${r}`).join(', ')})` : ''}`;
  }
}
