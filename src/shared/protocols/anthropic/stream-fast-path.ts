// The fast path for the Anthropic event nearly every stream is made of: a content_block_delta
// carrying a text_delta or an input_json_delta, exactly as Anthropic writes it. Recognised by its
// shape and read without parsing; any other event returns null and goes through JSON.parse.
import { stringLiteralEnd } from '../fast-path/json-scan.js';
import { StickyLiteral } from '../fast-path/sticky-pattern.js';

const HEAD = new StickyLiteral('{"type":"content_block_delta","index":');
const TEXT = new StickyLiteral(',"delta":{"type":"text_delta","text":');
const JSON_PART = new StickyLiteral(',"delta":{"type":"input_json_delta","partial_json":');
const TAIL = '}}';

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
  if (!HEAD.at(s, start)) return false;
  // The index: 0 or digits without a leading zero, at most 9 (a JSON integer JSON.parse reads exactly).
  const digits = start + HEAD.text.length;
  let at = digits;
  let index = 0;
  const first = s.charCodeAt(at);
  if (first === 0x30) at++;
  else {
    while (at < end && at - digits < 9) {
      const c = s.charCodeAt(at);
      if (c < 0x30 || c > 0x39) break;
      index = index * 10 + (c - 0x30);
      at++;
    }
    if (at === digits) return false;
  }
  let text: boolean;
  if (TEXT.at(s, at)) {
    text = true;
    at += TEXT.text.length;
  } else if (JSON_PART.at(s, at)) {
    text = false;
    at += JSON_PART.text.length;
  } else return false;
  // The literal cannot run past `end`: a raw line feed (or the end of `s`) stops the scan.
  const found = stringLiteralEnd(s, at);
  if (found === 0) return false;
  const escaped = found < 0;
  const litEnd = escaped ? -found - 1 : found;
  if (litEnd === at + 2 || end !== litEnd + TAIL.length || s.slice(litEnd, end) !== TAIL) return false;
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
