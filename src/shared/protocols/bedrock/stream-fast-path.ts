// The fast path for the converse-stream frame nearly every Bedrock stream is made of: a
// contentBlockDelta event carrying a text or tool-input delta, as Bedrock writes it
// (`{"contentBlockIndex":N,"delta":{"text":"..."},"p":"..."}`, the `p` padding optional: the
// gateway's own encoder leaves it out) or as the mock writes it (`{"delta":{...},
// "contentBlockIndex":N}`). Recognised by its headers and shape in the frame's text and read
// without parsing; any other frame returns false and goes through its headers and JSON.parse.
import { plainStringEnd, stringLiteralEnd, holdsAt, readStringLiteral, type StringRead } from '../fast-path/json-scan.js';
import { KnownHeaderBlock } from './event-stream.js';

/** The header block of a contentBlockDelta event, in the order Bedrock and the codec write it. */
export const DELTA_HEADER_BLOCK = new KnownHeaderBlock('contentBlockDelta');
const DELTA_HEADERS = DELTA_HEADER_BLOCK.text;
// Bedrock's order: the index, then the delta (its string's key compared with it).
const INDEX_FIRST = '{"contentBlockIndex":';
const THEN_TEXT = ',"delta":{"text":';
const THEN_TOOL_INPUT = ',"delta":{"toolUse":{"input":';
const PADDING_KEY = ',"p":';
// The mock's order: the headers and the delta up to its string, then the index.
const TEXT_FIRST = '{"delta":{"text":';
const TOOL_INPUT_FIRST = '{"delta":{"toolUse":{"input":';
const THEN_INDEX = ',"contentBlockIndex":';
/** readStringLiteral's result, copied out at once (one per module: a worker is one thread). */
const read: StringRead = { text: '', literal: undefined };
const CLOSE_BRACE = 0x7d;
const FIRST_LETTER_OF_INDEX = 0x63; // c

/** What a recognised delta carries; reused (one per decoder), so reading allocates no object. */
export interface BlockDelta {
  /** The upstream contentBlockIndex. */
  index: number;
  /** True for a text delta, false for a tool-input delta. */
  text: boolean;
  value: string;
  /** `value` as its JSON literal, or undefined when it held escapes. */
  literal: string | undefined;
}

/**
 * Reads the frame `text` (its header block `text[0, headersLength)`, then its payload, as
 * `FrameTextReader` offers it) into `out` when it is a contentBlockDelta whose payload has one
 * of the known shapes; false otherwise. Each key appears once, so JSON.parse would read the
 * same values. `headersKnown`: the reader already found the header block to be the delta's
 * (KnownHeaderBlock), so only the payload is compared here.
 */
export function readBlockDelta(text: string, headersLength: number, out: BlockDelta, headersKnown = false): boolean {
  if (headersLength !== DELTA_HEADERS.length || (!headersKnown && !holdsAt(text, 0, DELTA_HEADERS))) return false;
  const h = headersLength;
  let at: number;
  // The first key's first letter picks the order to compare with (one slice, not two).
  if (text.charCodeAt(h + 2) === FIRST_LETTER_OF_INDEX) {
    if (!holdsAt(text, h, INDEX_FIRST)) return false;
    at = readIndex(text, h + INDEX_FIRST.length, out);
    if (at < 0) return false;
    if (holdsAt(text, at, THEN_TEXT)) at = readString(text, at + THEN_TEXT.length, true, out);
    else if (holdsAt(text, at, THEN_TOOL_INPUT)) at = readString(text, at + THEN_TOOL_INPUT.length, false, out);
    else return false;
    if (at < 0) return false;
    if (holdsAt(text, at, PADDING_KEY)) {
      // Bedrock's padding (it hides the length of the text): any plain string, unread.
      at = plainStringEnd(text, at + PADDING_KEY.length);
      if (at < 0) return false;
    }
  } else {
    if (holdsAt(text, h, TEXT_FIRST)) at = readString(text, h + TEXT_FIRST.length, true, out);
    else if (holdsAt(text, h, TOOL_INPUT_FIRST)) at = readString(text, h + TOOL_INPUT_FIRST.length, false, out);
    else return false;
    if (at < 0 || !holdsAt(text, at, THEN_INDEX)) return false;
    at = readIndex(text, at + THEN_INDEX.length, out);
    if (at < 0) return false;
  }
  return at === text.length - 1 && text.charCodeAt(at) === CLOSE_BRACE;
}

/**
 * The block index at `at`: 0, or up to 9 digits without a leading zero (a JSON integer that
 * JSON.parse reads exactly). Sets `out.index`; returns the index after it, or -1.
 */
function readIndex(s: string, at: number, out: BlockDelta): number {
  if (s.charCodeAt(at) === 0x30) {
    out.index = 0;
    return at + 1;
  }
  let value = 0;
  let i = at;
  while (i - at < 9) {
    const c = s.charCodeAt(i);
    if (c < 0x30 || c > 0x39) break;
    value = value * 10 + (c - 0x30);
    i++;
  }
  if (i === at) return -1;
  out.index = value;
  return i;
}

/**
 * The delta's string at `at` (a text, or a tool input) and the braces that close the delta
 * (and toolUse). Sets `out.text`, `out.value` and `out.literal`; returns the index after the
 * delta's closing brace, or -1.
 */
function readString(s: string, at: number, isText: boolean, out: BlockDelta): number {
  const found = stringLiteralEnd(s, at);
  if (found === 0) return -1;
  const escaped = found < 0;
  const end = escaped ? -found - 1 : found;
  const close = isText ? end : end + 1;
  if (s.charCodeAt(close) !== CLOSE_BRACE || (!isText && s.charCodeAt(end) !== CLOSE_BRACE)) return -1;
  if (!readStringLiteral(s, at, end, escaped, read)) return -1; // a bad escape: the full decoder reports the frame
  out.value = read.text;
  out.literal = read.literal;
  out.text = isText;
  return close + 1;
}

