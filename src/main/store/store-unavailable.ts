// The shared store cannot be reached (refused, reset, timed out): not a bug of the call. The
// admin plane answers 503 `internal` with this message instead of hanging or answering 500;
// the data plane keeps serving what it holds (fail-static).
export class StoreUnavailableError extends Error {
  constructor(
    readonly module: string,
    cause: Error,
  ) {
    super(`the ${module} store is unavailable (${cause.message})`);
    this.name = 'StoreUnavailableError';
  }
}

/** postgres: SQLSTATE classes 08 (connection), 53 (resources), 57 (operator intervention); no code = a socket error. */
export function isPostgresUnavailable(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  if (typeof code !== 'string') return true;
  return /^(08|53|57)/.test(code) || /^E[A-Z]+$/.test(code);
}
