// A real Prometheus server (Debian's `prometheus`) for the tests: scrapes one target's /metrics
// every second with a bearer key from a file, and answers PromQL through its HTTP API. Stopped
// and its temp folder removed by stop().
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { freePort } from './ports.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';

const PROMETHEUS = '/usr/bin/prometheus';
/** A skip reason when the machine has no Prometheus (never under CI: test-prereqs installs it). */
export const PROMETHEUS_SKIP = existsSync(PROMETHEUS) || process.env.CI ? false : `prometheus is not installed at ${PROMETHEUS}`;

export interface PromSample {
  metric: Record<string, string>;
  value: [number, string];
}

export class PrometheusServer {
  private proc: ChildProcess | null = null;
  private dir = '';
  url = '';
  log = '';

  /** Starts scraping `target` (host:port) every second with `key` as the bearer. */
  async start(target: string, key: string): Promise<this> {
    this.dir = mkdtempSync(join(tmpdir(), 'gw-prometheus-'));
    writeFileSync(join(this.dir, 'key'), key, { mode: 0o600 });
    writeFileSync(
      join(this.dir, 'prometheus.yml'),
      [
        'global:',
        '  scrape_interval: 1s',
        '  evaluation_interval: 1s',
        'scrape_configs:',
        '  - job_name: gateway',
        '    metrics_path: /metrics',
        '    authorization:',
        '      type: Bearer',
        `      credentials_file: ${join(this.dir, 'key')}`,
        '    static_configs:',
        `      - targets: ['${target}']`,
        '',
      ].join('\n'),
    );
    const port = await freePort();
    this.url = `http://127.0.0.1:${port}`;
    this.proc = spawn(
      PROMETHEUS,
      [`--config.file=${join(this.dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(this.dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    this.proc.stderr!.on('data', (chunk: Buffer) => (this.log += chunk.toString('utf8')));
    return this;
  }

  /** An instant query; [] while the server is not up yet or the query fails. */
  async query(expr: string): Promise<PromSample[]> {
    try {
      const res = await request(`${this.url}/api/v1/query?query=${encodeURIComponent(expr)}`);
      const body = (await res.body.json()) as { status: string; data?: { resultType: string; result: PromSample[] | [number, string] } };
      if (body.status !== 'success' || body.data === undefined) return [];
      // A scalar result (a bare number expression) is one sample with no labels.
      return body.data.resultType === 'scalar' ? [{ metric: {}, value: body.data.result as [number, string] }] : (body.data.result as PromSample[]);
    } catch {
      return [];
    }
  }

  /** The query's error message, or null when it parses and runs. */
  async queryError(expr: string): Promise<string | null> {
    const res = await request(`${this.url}/api/v1/query?query=${encodeURIComponent(expr)}`);
    const body = (await res.body.json()) as { status: string; error?: string };
    return body.status === 'success' ? null : (body.error ?? `status ${body.status}`);
  }

  /** Values of a label over the series `match` selects (what Grafana's label_values() asks). */
  async labelValues(label: string, match: string): Promise<string[]> {
    const res = await request(`${this.url}/api/v1/label/${label}/values?match[]=${encodeURIComponent(match)}`);
    const body = (await res.body.json()) as { status: string; data?: string[] };
    return body.status === 'success' ? (body.data ?? []) : [];
  }

  async stop(): Promise<void> {
    const proc = this.proc;
    if (proc !== null && proc.exitCode === null) {
      const exited = new Promise((resolve) => proc.once('exit', resolve));
      proc.kill('SIGTERM');
      await exited;
    }
    if (this.dir !== '') rmSync(this.dir, { recursive: true, force: true });
  }
}
