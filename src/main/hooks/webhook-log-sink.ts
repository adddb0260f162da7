// The webhook request-log sink: each record POSTed as JSON through undici (signed like hook
// webhooks when a secret is set), at most max_inflight deliveries at once; a record that finds
// the pool full is shed and counted. Delivery is best-effort: a failed POST is not retried.
import { request } from 'undici';
import { signDelivery } from '../../shared/hooks/webhook-transport.js';
import { egressAgent } from '../../shared/egress/dispatchers.js';

export interface WebhookSinkOptions {
  url: string;
  secret: string;
  maxInflight: number;
  timeoutMs: number;
}

export class WebhookLogSink {
  private inflight = 0;

  constructor(
    readonly options: WebhookSinkOptions,
    private readonly onDropped: (n: number) => void,
  ) {}

  accept(body: string): boolean {
    if (this.inflight >= this.options.maxInflight) {
      this.onDropped(1);
      return false;
    }
    this.inflight++;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.options.secret !== '') {
      const ts = Math.floor(Date.now() / 1000);
      headers['x-gateway-hook-timestamp'] = String(ts);
      headers['x-gateway-hook-signature'] = signDelivery(this.options.secret, ts, body);
    }
    request(this.options.url, {
      dispatcher: egressAgent(),
      method: 'POST',
      headers,
      body,
      headersTimeout: this.options.timeoutMs,
      bodyTimeout: this.options.timeoutMs,
    })
      .then(
        (res) => res.body.dump(),
        () => undefined,
      )
      .finally(() => this.inflight--);
    return true;
  }
}
