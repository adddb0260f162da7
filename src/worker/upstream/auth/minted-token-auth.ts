// The shared base of the two token-minting modes (jwt-bearer, oauth-client-credentials).
// A token is minted in the background from creation on, cached as a ready-made
// `Bearer <token>` string, refreshed before it expires, and retried with capped exponential
// backoff on failure. apply() never waits for a mint: with no token it returns false and the
// caller answers 401 (the spec's "about 1 second of 401 after boot or reload").
import type { Agent } from 'undici';
import { guardedAgent } from '../../../shared/egress/dispatchers.js';
import type { Logger } from '../../../shared/log.js';
import { TokenMintError, type MintedToken } from './token-endpoint.js';
import type { OutgoingRequest, UpstreamAuth } from './upstream-auth.js';

/** Where the refresh, retry and expiry timers run (tests pass one they fire by hand). */
export interface TokenTimers {
  /** Calls `fire` after `delayMs`; the timer must not keep the process alive. */
  start(fire: () => void, delayMs: number): unknown;
  stop(timer: unknown): void;
}

/** Node's timers, unref'd. */
const NODE_TIMERS: TokenTimers = {
  start(fire, delayMs) {
    return setTimeout(fire, delayMs).unref();
  },
  stop(timer) {
    clearTimeout(timer as NodeJS.Timeout);
  },
};

export interface TokenTiming {
  /** First retry delay after a failed mint; doubles per consecutive failure. */
  backoffBaseMs: number;
  /** Ceiling of the retry delay. */
  backoffMaxMs: number;
  /** Connect, headers and body timeout of one token call. */
  requestTimeoutMs: number;
  timers: TokenTimers;
}

export const DEFAULT_TOKEN_TIMING: TokenTiming = { backoffBaseMs: 200, backoffMaxMs: 30_000, requestTimeoutMs: 10_000, timers: NODE_TIMERS };

// setTimeout's ceiling (~24.8 days); a longer delay would fire at once.
const TIMER_MAX_MS = 2 ** 31 - 1;
const REFRESH_MIN_MS = 500;
const REFRESH_LEAD_MS = 60_000;

/**
 * When to mint the next token: at 80 % of its lifetime or 60 s before expiry, whichever is
 * sooner, but never before half its lifetime (so a short-lived token is not re-minted in a
 * loop) and never sooner than 500 ms.
 */
export function refreshDelayMs(expiresInSec: number): number {
  const lifetimeMs = expiresInSec * 1000;
  const due = Math.max(Math.min(lifetimeMs * 0.8, lifetimeMs - REFRESH_LEAD_MS), lifetimeMs * 0.5);
  return Math.min(Math.max(Math.round(due), REFRESH_MIN_MS), TIMER_MAX_MS);
}

/** Retry delay after `failures` consecutive failed mints (1, 2, ...). */
export function backoffDelayMs(failures: number, timing: TokenTiming): number {
  const exp = Math.min(failures - 1, 30);
  return Math.min(timing.backoffBaseMs * 2 ** exp, timing.backoffMaxMs);
}

export abstract class MintedTokenAuth implements UpstreamAuth {
  protected readonly timing: TokenTiming;
  /** A private connection pool for token calls, closed with this object. */
  protected readonly dispatcher: Agent;
  readonly #provider: string;
  readonly #tokenOrigin: string;
  readonly #log: Logger;
  #authorization: string | null = null;
  #nextMint: unknown = null;
  #expiry: unknown = null;
  #inflight: AbortController | null = null;
  #failures = 0;
  #closed = false;

  protected constructor(provider: string, tokenUrl: string, log: Logger, timing: Partial<TokenTiming> | undefined) {
    let url: URL;
    try {
      url = new URL(tokenUrl);
    } catch {
      throw new Error(`upstream auth for provider ${provider}: token URL is not a valid URL`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new Error(`upstream auth for provider ${provider}: token URL must be http or https`);
    }
    this.#provider = provider;
    this.#tokenOrigin = url.origin;
    this.#log = log;
    this.timing = { ...DEFAULT_TOKEN_TIMING, ...timing };
    this.dispatcher = guardedAgent({ connections: 1, connect: { timeout: this.timing.requestTimeoutMs } });
  }

  /** One token call. Throws (preferably a TokenMintError) on failure. */
  protected abstract mint(signal: AbortSignal): Promise<MintedToken>;

  /** Subclasses call this at the end of their constructor: the first mint starts now. */
  protected start(): void {
    void this.#mintOnce();
  }

  apply(req: OutgoingRequest): boolean {
    const authorization = this.#authorization;
    if (authorization === null) return false;
    req.headers.authorization = authorization;
    return true;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#authorization = null;
    if (this.#nextMint !== null) this.timing.timers.stop(this.#nextMint);
    if (this.#expiry !== null) this.timing.timers.stop(this.#expiry);
    this.#nextMint = this.#expiry = null;
    this.#inflight?.abort();
    this.dispatcher.destroy().catch(() => {});
  }

  // Never rejects: every outcome schedules the next step or stops on close.
  async #mintOnce(): Promise<void> {
    this.#nextMint = null;
    const abort = new AbortController();
    this.#inflight = abort;
    try {
      const token = await this.mint(abort.signal);
      if (this.#closed) return;
      this.#onMinted(token);
    } catch (err) {
      if (this.#closed) return;
      this.#onFailed(err);
    } finally {
      if (this.#inflight === abort) this.#inflight = null;
    }
  }

  #onMinted(token: MintedToken): void {
    this.#authorization = `Bearer ${token.accessToken}`;
    this.#failures = 0;
    const refreshInMs = refreshDelayMs(token.expiresInSec);
    this.#log.info({ provider: this.#provider, tokenOrigin: this.#tokenOrigin, status: token.status, refreshInMs }, 'upstream token minted');
    this.#schedule(refreshInMs);
    // If every refresh fails, stop sending the token once it has expired: a 401 from the
    // gateway is clearer than one from the upstream.
    if (this.#expiry !== null) this.timing.timers.stop(this.#expiry);
    this.#expiry = this.timing.timers.start(() => this.#onExpired(), Math.min(token.expiresInSec * 1000, TIMER_MAX_MS));
  }

  #onFailed(err: unknown): void {
    const mintErr = err instanceof TokenMintError ? err : undefined;
    const fields = {
      provider: this.#provider,
      tokenOrigin: this.#tokenOrigin,
      status: mintErr?.status,
      reason: mintErr?.reason ?? 'error',
    };
    if (mintErr?.permanent) {
      this.#log.error(fields, 'upstream token mint failed; not retrying until the config is reloaded');
      return;
    }
    this.#failures++;
    const retryInMs = backoffDelayMs(this.#failures, this.timing);
    this.#log.warn({ ...fields, failures: this.#failures, retryInMs }, 'upstream token mint failed');
    this.#schedule(retryInMs);
  }

  #onExpired(): void {
    this.#expiry = null;
    this.#authorization = null;
    this.#log.warn({ provider: this.#provider, tokenOrigin: this.#tokenOrigin }, 'upstream token expired before a refresh succeeded');
  }

  #schedule(delayMs: number): void {
    if (this.#nextMint !== null) this.timing.timers.stop(this.#nextMint);
    this.#nextMint = this.timing.timers.start(() => void this.#mintOnce(), delayMs);
  }
}
