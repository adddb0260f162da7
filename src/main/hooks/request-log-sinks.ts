// The request-log sinks of the live config (`logs:`), fed by the workers' batches. Rebuilt when
// an apply changes the section; the prompt is kept only for a sink that opted in.
import { isAbsolute, join, dirname } from 'node:path';
import type { RequestLogRecord } from '../../shared/messages.js';
import type { DeploymentConfig } from '../../shared/config/schema/deployment.js';
import { formatPath } from '../../shared/config/config-path.js';
import { FileLogSink } from './file-log-sink.js';
import { WebhookLogSink } from './webhook-log-sink.js';
import type { ResolvedSecrets } from '../config/load-result.js';

export interface LogsDropCounters {
  webhook(n: number): void;
  file(n: number): void;
}

export class RequestLogSinks {
  private webhook: { sink: WebhookLogSink; prompt: boolean } | null = null;
  private file: { sink: FileLogSink; prompt: boolean } | null = null;
  private configured = '';

  constructor(private readonly dropped: LogsDropCounters) {}

  /** Follow the live config; cheap when the section did not change. */
  configure(config: DeploymentConfig | undefined, secrets: ResolvedSecrets, configPath: string): void {
    const logs = config?.logs ?? {};
    const key = JSON.stringify(logs) + (secrets.get(formatPath(['logs', 'webhook', 'secret'])) ?? '');
    if (key === this.configured) return;
    this.configured = key;
    const w = logs.webhook;
    this.webhook =
      w === undefined
        ? null
        : {
            sink: new WebhookLogSink(
              { url: w.url, secret: secrets.get(formatPath(['logs', 'webhook', 'secret'])) ?? '', maxInflight: w.max_inflight, timeoutMs: w.timeout_ms },
              (n) => this.dropped.webhook(n),
            ),
            prompt: w.include_prompt,
          };
    const f = logs.file;
    this.file =
      f === undefined
        ? null
        : {
            sink: new FileLogSink(
              { path: isAbsolute(f.path) ? f.path : join(dirname(configPath), f.path), maxBytes: f.max_bytes, keep: f.keep, maxPending: f.max_pending },
              (n) => this.dropped.file(n),
            ),
            prompt: f.include_prompt,
          };
  }

  accept(records: readonly RequestLogRecord[]): void {
    for (const record of records) {
      let withPrompt: string | null = null;
      let without: string | null = null;
      const line = (prompt: boolean): string => {
        if (prompt) return (withPrompt ??= JSON.stringify(record));
        if (record.prompt === undefined) return (without ??= JSON.stringify(record));
        const { prompt: _omit, ...rest } = record;
        return (without ??= JSON.stringify(rest));
      };
      if (this.webhook !== null) this.webhook.sink.accept(line(this.webhook.prompt));
      if (this.file !== null) this.file.sink.accept(line(this.file.prompt));
    }
  }

  /** Resolves once the file sink wrote everything accepted so far (graceful stop). */
  async flushed(): Promise<void> {
    await this.file?.sink.flushed();
  }
}
