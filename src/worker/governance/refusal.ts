// A request refused by authentication or admission: the error kind (status and type per
// protocol come from src/shared/errors.ts), a message that names the reason, and Retry-After.
// Not an Error: a refusal is an answer, and a flood of them should not capture stacks.
import type { ErrorKind } from '../../shared/errors.js';

export class Refusal {
  constructor(
    readonly kind: ErrorKind,
    readonly message: string,
    readonly retryAfterSecs?: number,
    /** The governance bucket whose limit refused (`group:<name>@<window>`); '' for other refusals. */
    readonly bucket = '',
  ) {}
}
