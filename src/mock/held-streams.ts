// Streams the mock holds back before their last piece (setting `hold_last=<key>`) until the
// client says it has seen the first one (`POST /mock/release/<key>`). A test's handshake: a
// gateway that relays a stream as it arrives lets the client see the first piece while the
// mock still holds the last, so the release finds the stream held; a gateway that buffered the
// whole stream would show the client nothing until the mock gave up holding. No clock is in
// that verdict; HOLD_MAX_MS only bounds how long a broken gateway keeps a test waiting.

/** How long a stream is held at most before the mock sends its end anyway. */
const HOLD_MAX_MS = 30_000;

interface Held<T> {
  stream: T;
  resume: (stream: T) => void;
  timer: NodeJS.Timeout;
}

export class HeldStreams<T> {
  readonly #held = new Map<string, Held<T>>();

  /**
   * Holds `stream` under `key` until release(key), or HOLD_MAX_MS; then `resume` runs once.
   * Returns the timer so that the caller's abort path can clear it with its own.
   */
  hold(key: string, stream: T, resume: (stream: T) => void): NodeJS.Timeout {
    this.release(key); // a key held twice: the older stream goes on
    const timer = setTimeout(() => {
      this.#held.delete(key);
      resume(stream);
    }, HOLD_MAX_MS);
    this.#held.set(key, { stream, resume, timer });
    return timer;
  }

  /** Resumes the stream held under `key`; false when none is (never held, or already sent). */
  release(key: string): boolean {
    const held = this.#held.get(key);
    if (held === undefined) return false;
    this.#held.delete(key);
    clearTimeout(held.timer);
    held.resume(held.stream);
    return true;
  }

  /** Forgets the stream under `key` without resuming it (its client went away). */
  drop(key: string): void {
    const held = this.#held.get(key);
    if (held === undefined) return;
    this.#held.delete(key);
    clearTimeout(held.timer);
  }

  clear(): void {
    for (const held of this.#held.values()) clearTimeout(held.timer);
    this.#held.clear();
  }
}
