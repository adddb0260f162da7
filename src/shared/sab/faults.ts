// The two ways shared memory refuses to go on: it is full (a configuration grew past the
// reserved maximum), or a caller broke an invariant (released what it never took). Both are
// thrown loudly instead of letting a word silently wrap or go negative.

/** A record does not fit under the buffer's reserved maximum. Raised on the main thread
 * while assigning slots, so the config apply that needed them fails and nothing is written. */
export class SharedCapacityError extends Error {
  constructor(
    readonly what: string,
    readonly bytesNeeded: number,
    readonly maxBytes: number,
  ) {
    super(`shared memory is full: ${what} needs ${bytesNeeded} bytes, the reserved maximum is ${maxBytes} bytes (raise SharedState maxBytes)`);
    this.name = 'SharedCapacityError';
  }
}

/** A caller broke a rule of the shared counters (a bug, never bad input from outside). */
export class SharedInvariantError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SharedInvariantError';
  }
}
