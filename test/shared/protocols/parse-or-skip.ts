// The fast-path tests' reference reads start where the full decoder does: JSON.parse of the
// event or line, which the decoder skips (or refuses) when it does not parse.

/** JSON.parse of `data`, or undefined where it throws (no JSON text parses to undefined). */
export function parseOrSkip(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}
