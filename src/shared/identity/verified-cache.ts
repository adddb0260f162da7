// A bounded cache of verified bearer tokens (virtual keys, IdP tokens), oldest dropped first,
// looked up on every request. It is keyed by a number hashed from the token's last characters
// (a JWS ends in its signature, which is random) rather than by the token: a Map keyed by the
// string hashes all of it (~250 bytes) on every lookup, since each request's header value is a
// new string, and that cost about 0.35 µs per request. A hit still compares the whole token, so
// two tokens whose tails collide only take turns in one entry.

/** How many trailing characters are hashed: 96 random bits of a JWS signature (86 characters for
 * EdDSA, more for the others), and few enough to read cheaply from a sliced header string. */
const TAIL_CHARS = 16;

/** FNV-1a over the token's last TAIL_CHARS characters, as a non-negative small integer. */
export function tailHash(token: string): number {
  let h = 0x811c9dc5;
  for (let i = token.length > TAIL_CHARS ? token.length - TAIL_CHARS : 0; i < token.length; i++) {
    h = Math.imul(h ^ token.charCodeAt(i), 0x01000193);
  }
  return h >>> 2; // a Smi on every V8 build: the Map hashes it without boxing
}

interface Entry<V> {
  readonly token: string;
  readonly value: V;
}

export class VerifiedCache<V extends { readonly expSec: number }> {
  private readonly entries = new Map<number, Entry<V>>();

  constructor(private capacity: number) {}

  get size(): number {
    return this.entries.size;
  }

  resize(capacity: number): void {
    this.capacity = capacity;
  }

  /** The verification of `token` if cached and not expired at `nowSec` (an expired one is dropped). */
  get(token: string, nowSec: number): V | undefined {
    const hash = tailHash(token);
    const hit = this.entries.get(hash);
    if (hit === undefined || hit.token !== token) return undefined;
    if (hit.value.expSec <= nowSec) {
      this.entries.delete(hash);
      return undefined;
    }
    return hit.value;
  }

  set(token: string, value: V): void {
    const hash = tailHash(token);
    // A colliding token gives its entry up; a fresh one goes to the end of the eviction order.
    if (!this.entries.delete(hash) && this.entries.size >= this.capacity) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
    this.entries.set(hash, { token, value });
  }

  /** Empty it; how many entries it held. */
  clear(): number {
    const n = this.entries.size;
    this.entries.clear();
    return n;
  }
}
