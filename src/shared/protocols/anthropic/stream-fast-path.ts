// The fast path for the Anthropic event nearly every stream is made of: a content_block_delta
// carrying a text_delta or an input_json_delta, exactly as Anthropic writes it. Recognised by its
// shape and read without parsing; any other event returns null and goes through JSON.parse.
import { literalPattern, PATTERN_MAX_CHARS, SLOT_PATTERN } from '../fast-path/sticky-pattern.js';
import { eventSides } from '../fast-path/text-run.js';

const HEAD = '{"type":"content_block_delta","index":';
const TEXT = ',"delta":{"type":"text_delta","text":';
const JSON_PART = ',"delta":{"type":"input_json_delta","partial_json":';
const TAIL = '}}';
/** The named event's lines up to its data, as Anthropic writes them. */
export const EVENT_HEAD = 'event: content_block_delta\ndata: ';

/**
 * The delta's data as one sticky pattern: the index (0 or digits without a leading zero, at
 * most 9: a JSON integer JSON.parse reads exactly), the kind, a non-empty string, the tail.
 */
const delta = (value: string): string =>
  `${literalPattern(HEAD)}(?:0|[1-9][0-9]{0,8})(?:${literalPattern(TEXT)}|${literalPattern(JSON_PART)})${value}${literalPattern(TAIL)}`;
const PLAIN = new RegExp(delta(SLOT_PATTERN.nonEmptyPlainString), 'y');
/** Any string (escapes checked by JSON.parse). */
const ANY = new RegExp(delta(SLOT_PATTERN.nonEmptyStringLiteral), 'y');
/** The whole event, its line ends not yet found: `event:` line and `data:` line, up to the data's end. */
const PLAIN_EVENT = new RegExp(`${literalPattern(EVENT_HEAD)}${delta(SLOT_PATTERN.nonEmptyPlainString)}`, 'y');
const ANY_EVENT = new RegExp(`${literalPattern(EVENT_HEAD)}${delta(SLOT_PATTERN.nonEmptyStringLiteral)}`, 'y');

/**
 * A text delta of upstream block `index` around its literal, as Anthropic writes the event:
 * the sides of a run of them (fast-path/text-run.ts).
 */
export function textRunSides(index: number): { head: Uint8Array; tail: Uint8Array } {
  return eventSides(`${EVENT_HEAD}${HEAD}${index}${TEXT}`, `${TAIL}\n\n`)!; // printable and short
}

/** What a recognised delta carries; reused (one per decoder), so reading allocates no object. */
export interface BlockDelta {
  index: number;
  /** True for text_delta, false for input_json_delta. */
  text: boolean;
  value: string;
  /** `value` as its JSON literal, or undefined when it held escapes. */
  literal: string | undefined;
}

/**
 * Reads the event data `s[start, end)` into `out` when it is a plain, non-empty text or
 * input-json delta; false otherwise.
 */
export function readBlockDelta(s: string, start: number, end: number, out: BlockDelta): boolean {
  if (end - start > PATTERN_MAX_CHARS) return false;
  let p = PLAIN;
  p.lastIndex = start;
  if (!p.test(s) || p.lastIndex !== end) {
    p = ANY;
    p.lastIndex = start;
    if (!p.test(s) || p.lastIndex !== end) return false;
    return readMatched(s, start, end, true, out);
  }
  return readMatched(s, start, end, false, out);
}

/**
 * The `content_block_delta` event at `s[at]` (its `event:` line), its line ends not yet
 * found: where its data ends when it is a delta readBlockDelta reads (read into `out`), or -1.
 * The caller checks that the event ends there (sse.ts eventEndsAt) before using `out`.
 */
export function matchBlockDeltaEvent(s: string, at: number, out: BlockDelta): number {
  if (s.length - at > PATTERN_MAX_CHARS) return -1;
  let escaped = false;
  let p = PLAIN_EVENT;
  p.lastIndex = at;
  if (!p.test(s)) {
    p = ANY_EVENT;
    p.lastIndex = at;
    if (!p.test(s)) return -1;
    escaped = true;
  }
  const end = p.lastIndex;
  return readMatched(s, at + EVENT_HEAD.length, end, escaped, out) ? end : -1;
}

/** Reads the delta `s[start, end)` the pattern matched (by ANY only when `escaped`). */
function readMatched(s: string, start: number, end: number, escaped: boolean, out: BlockDelta): boolean {
  let at = start + HEAD.length;
  let index = 0;
  for (let c = s.charCodeAt(at); c >= 0x30 && c <= 0x39; c = s.charCodeAt(++at)) index = index * 10 + (c - 0x30);
  // `,"delta":{"type":"` then `t` (text_delta) or `i` (input_json_delta).
  const text = s.charCodeAt(at + 18) === 0x74;
  at += text ? TEXT.length : JSON_PART.length;
  const litEnd = end - TAIL.length;
  let value: string;
  let literal: string | undefined;
  if (!escaped) {
    literal = s.slice(at, litEnd);
    value = s.slice(at + 1, litEnd - 1);
  } else {
    try {
      value = JSON.parse(s.slice(at, litEnd)) as string;
    } catch {
      return false;
    }
  }
  out.index = index;
  out.text = text;
  out.value = value;
  out.literal = literal;
  return true;
}
