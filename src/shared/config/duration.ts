// The one parser of human durations in the config and the admin API: `90d`, `12h`, `30m`,
// `15s`, `500ms`, `1w`, and compounds such as `1h30m`. Whole numbers only; anything else is
// garbage and is rejected rather than guessed at.

const UNIT_MS: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/** The shape a duration string must have; used as the schema pattern too. */
export const DURATION_PATTERN = '^(?:[0-9]+(?:ms|s|m|h|d|w))+$';
const WHOLE = new RegExp(DURATION_PATTERN);
const PART = /([0-9]+)(ms|s|m|h|d|w)/g;

/** Milliseconds, or undefined when `text` is not a duration (or overflows a safe integer). */
export function parseDurationMs(text: string): number | undefined {
  if (!WHOLE.test(text)) return undefined;
  let total = 0;
  for (const match of text.matchAll(PART)) {
    total += Number(match[1]) * UNIT_MS[match[2]!]!;
  }
  return Number.isSafeInteger(total) ? total : undefined;
}
