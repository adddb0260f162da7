// A hook over HTTP: each message is one POST of its JSON map through undici, and the response
// body is the reply (taps: any 2xx, body ignored). With a `secret` every delivery is signed:
// `x-gateway-hook-timestamp` (unix seconds) and `x-gateway-hook-signature: sha256=<hex>` of
// HMAC-SHA256(secret, timestamp + "." + body); a receiver refuses a stale timestamp to stop
// replays (docs/hooks.md).
import { createHmac } from 'node:crypto';
import { request } from 'undici';
import { egressAgent } from '../egress/dispatchers.js';
import { HookFailure, TransportBase } from './transport.js';
import type { HookReply, HookRequest } from './wire.js';

/** Tap deliveries in flight per hook before further taps are shed. */
const WEBHOOK_TAP_INFLIGHT = 64;
/** Longest a delivery may take at the HTTP level (the gate deadline itself is timeout_ms). */
const DELIVERY_TIMEOUT_MS = 60_000;

export function signDelivery(secret: string, timestampSecs: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestampSecs}.${body}`).digest('hex')}`;
}

export class WebhookTransport extends TransportBase {
  private tapsInFlight = 0;
  private closed = false;

  constructor(
    hookName: string,
    readonly url: string,
    private readonly secret: string,
  ) {
    super(hookName);
  }

  protected write(message: HookRequest, awaitReply: boolean): boolean {
    if (this.closed) return false;
    if (!awaitReply) {
      if (!this.acceptsTaps()) return false;
      this.tapsInFlight++;
      this.post(message)
        .then(
          (res) => res.body.dump(),
          () => undefined,
        )
        .finally(() => this.tapsInFlight--);
      return true;
    }
    this.post(message)
      .then(async (res) => {
        if (res.statusCode < 200 || res.statusCode > 299) {
          await res.body.dump();
          this.fail(message.id, new HookFailure(this.hookName, 'error', `answered HTTP ${res.statusCode}`));
          return;
        }
        const reply = (await res.body.json()) as HookReply;
        // The reply answers this POST whatever id it carries.
        this.settle(message.id, { ...reply, id: message.id } as HookReply);
      })
      .catch((err: unknown) =>
        this.fail(message.id, new HookFailure(this.hookName, 'unreachable', err instanceof Error ? err.constructor.name : 'request failed')),
      );
    return true;
  }

  acceptsTaps(): boolean {
    return !this.closed && this.tapsInFlight < WEBHOOK_TAP_INFLIGHT;
  }

  close(): void {
    this.closed = true;
    this.failAll(new HookFailure(this.hookName, 'unreachable', 'the transport was closed'));
  }

  private post(message: HookRequest): ReturnType<typeof request> {
    const body = JSON.stringify(message);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.secret !== '') {
      const timestampSecs = Math.floor(Date.now() / 1000);
      headers['x-gateway-hook-timestamp'] = String(timestampSecs);
      headers['x-gateway-hook-signature'] = signDelivery(this.secret, timestampSecs, body);
    }
    // Bounded even after a gate's own deadline passed, so a hanging receiver cannot pile up connections.
    return request(this.url, {
      dispatcher: egressAgent(),
      method: 'POST',
      headers,
      body,
      headersTimeout: DELIVERY_TIMEOUT_MS,
      bodyTimeout: DELIVERY_TIMEOUT_MS,
    });
  }
}
