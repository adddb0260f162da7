// The fast path for the converse-stream frame nearly every Bedrock stream is made of: a
// contentBlockDelta event carrying a text or tool-input delta, as Bedrock writes it
// (`{"contentBlockIndex":N,"delta":{"text":"..."},"p":"..."}`, the `p` padding optional: the
// gateway's own encoder leaves it out) or as the mock writes it (`{"delta":{...},
// "contentBlockIndex":N}`). The frame's text (header block, then payload) is recognised by one
// sticky pattern (the block and the payload shapes, whole), so the event stream reader can
// tell it apart before reading anything (DELTA_HEADER_BLOCK); the few values are then taken
// from places the shape fixes. Any other frame returns false and goes through its headers and
// JSON.parse.
import { readStringLiteral, type StringRead } from '../fast-path/json-scan.js';
import { PATTERN_MAX_CHARS, SLOT_PATTERN } from '../fast-path/sticky-pattern.js';
import { KnownHeaderBlock, type PayloadSpans } from './event-stream.js';
import { Crc32Across } from './crc32.js';

// Bedrock's order: the index, then the delta (its string's key told by one letter).
const INDEX_FIRST = '{"contentBlockIndex":';
const THEN_TEXT = ',"delta":{"text":';
const THEN_TOOL_INPUT = ',"delta":{"toolUse":{"input":';
// The mock's order: the delta up to its string, then the index.
const TEXT_FIRST = '{"delta":{"text":';
const TOOL_INPUT_FIRST = '{"delta":{"toolUse":{"input":';
const THEN_INDEX = ',"contentBlockIndex":';
/** In TEXT_FIRST and THEN_TEXT alike, where `text` has its `e` and `toolUse` its `o`. */
const TEXT_OR_TOOL_AT = TEXT_FIRST.indexOf('text') + 1;
const LETTER_E = 0x65;
const FIRST_LETTER_OF_INDEX = 0x63; // c
const BACKSLASH = 0x5c;
const QUOTE = 0x22;
const CLOSE_BRACE = 0x7d;

/**
 * The index as readIndex reads it: 0, or up to 9 digits without a leading zero (a JSON
 * integer that JSON.parse reads exactly).
 */
const INDEX = '(?:0|[1-9][0-9]{0,8})';
const STRING = SLOT_PATTERN.stringLiteral;
const DELTA = `\\{(?:"text":${STRING}|"toolUse":\\{"input":${STRING}\\})\\}`;
/** The same of characters below 0x80 only (a frame read in its latin1 text). */
const ASCII_STRING = SLOT_PATTERN.asciiStringLiteral;
const ASCII_DELTA = `\\{(?:"text":${ASCII_STRING}|"toolUse":\\{"input":${ASCII_STRING}\\})\\}`;
const ASCII_DELTA_PAYLOADS =
  `\\{"contentBlockIndex":${INDEX},"delta":${ASCII_DELTA}(?:,"p":${SLOT_PATTERN.asciiPlainString})?\\}` +
  `|\\{"delta":${ASCII_DELTA},"contentBlockIndex":${INDEX}\\}`;

/** The payloads read here, each key once (so JSON.parse would read the same values). */
const DELTA_PAYLOADS =
  `\\{"contentBlockIndex":${INDEX},"delta":${DELTA}(?:,"p":${SLOT_PATTERN.plainString})?\\}` + // Bedrock's padding: any plain string, unread
  `|\\{"delta":${DELTA},"contentBlockIndex":${INDEX}\\}`;

/** Carries for the first block indexes are made once and kept; a later index has its runs summed. */
const KEPT_INDEXES = 32;
/** Carries kept by [text or tool][index]: header block and payload start, and payload end. */
const bedrockStarts: Array<Array<Crc32Across | undefined>> = [[], []];
const mockStarts: Array<Crc32Across | undefined> = [];
const mockEnds: Array<Array<Crc32Across | undefined>> = [[], []];
const bedrockEnds: Array<Crc32Across | undefined> = [];

/**
 * Where a matched delta's parts are (one read per frame, for its CRC and for its values): its
 * index and kind, its string `text[valueStart, valueEnd)` with the quotes, and the constant
 * runs of ASCII around that string for the CRC (PayloadSpans): in Bedrock's order
 * `{"contentBlockIndex":N,"delta":{"text":"` and, without padding, `"}}`; in the mock's
 * `{"delta":{"text":"` and `"},"contentBlockIndex":N}` (`toolUse` alike). The padding, like
 * the string, is summed.
 */
class DeltaPlaces implements PayloadSpans {
  index = 0;
  /** True for a text delta, false for a tool input. */
  isText = true;
  valueStart = 0;
  valueEnd = 0;
  prefix: Crc32Across | null = null;
  prefixChars = 0;
  suffix: Crc32Across | null = null;
  suffixChars = 0;

  /** `text` is a frame DELTA_HEADER_BLOCK's pattern matched, its header block `h` characters. */
  read(text: string, h: number): void {
    this.suffix = null;
    this.suffixChars = 0;
    const end = text.length;
    if (text.charCodeAt(h + 2) === FIRST_LETTER_OF_INDEX) {
      // The index, then the string; the padding after it (if any) holds no quote, so the
      // string's end is its first quote not escaped.
      let at = h + INDEX_FIRST.length;
      let index = 0;
      for (let c = text.charCodeAt(at); c >= 0x30 && c <= 0x39; c = text.charCodeAt(++at)) index = index * 10 + (c - 0x30);
      const kind = text.charCodeAt(at + TEXT_OR_TOOL_AT) === LETTER_E ? 0 : 1;
      this.index = index;
      this.isText = kind === 0;
      this.valueStart = at + (kind === 0 ? THEN_TEXT.length : THEN_TOOL_INPUT.length);
      this.valueEnd = literalEnd(text, this.valueStart);
      this.prefixChars = this.valueStart + 1 - h;
      this.prefix = index < KEPT_INDEXES ? (bedrockStarts[kind]![index] ??= DELTA_HEADER_BLOCK.acrossWith(text.slice(h, this.valueStart + 1))) : null;
      // Without padding the payload ends `"}}` (`"}}}` for a tool input); with it, `"}` after the padding's string.
      const tail = kind === 0 ? 3 : 4;
      if (text.charCodeAt(end - 2) === CLOSE_BRACE && text.charCodeAt(end - tail) === QUOTE) {
        this.suffix = bedrockEnds[kind] ??= new Crc32Across(Buffer.from(text.slice(end - tail), 'latin1'));
        this.suffixChars = tail;
      }
      return;
    }
    // The string, then the index, which ends the payload: both found from its end.
    const kind = text.charCodeAt(h + TEXT_OR_TOOL_AT) === LETTER_E ? 0 : 1;
    this.isText = kind === 0;
    this.valueStart = h + (kind === 0 ? TEXT_FIRST.length : TOOL_INPUT_FIRST.length);
    this.prefixChars = this.valueStart + 1 - h;
    this.prefix = mockStarts[kind] ??= DELTA_HEADER_BLOCK.acrossWith(text.slice(h, this.valueStart + 1));
    let at = end - 1;
    let index = 0;
    for (let scale = 1, c = text.charCodeAt(--at); c >= 0x30 && c <= 0x39; c = text.charCodeAt(--at), scale *= 10) index += (c - 0x30) * scale;
    this.index = index;
    // After the closing quote: `}` (`}}` for a tool input), then `,"contentBlockIndex":N}`.
    this.valueEnd = at + 1 - THEN_INDEX.length - (kind === 0 ? 1 : 2);
    if (index < KEPT_INDEXES) {
      this.suffixChars = end - (this.valueEnd - 1);
      this.suffix = mockEnds[kind]![index] ??= new Crc32Across(Buffer.from(text.slice(this.valueEnd - 1), 'latin1'));
    }
  }
}

/** The places of the frame last matched (one per module: a worker is one thread). */
const places = new DeltaPlaces();

/** The header block of a contentBlockDelta event, in the order Bedrock and the codec write it, and the payloads read here. */
export const DELTA_HEADER_BLOCK = new KnownHeaderBlock('contentBlockDelta', DELTA_PAYLOADS, places, ASCII_DELTA_PAYLOADS);
const HEADERS_LENGTH = DELTA_HEADER_BLOCK.text.length;

/** readStringLiteral's result, copied out at once (one per module: a worker is one thread). */
const read: StringRead = { text: '', literal: undefined };

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
 * of the known shapes; false otherwise (or on a bad escape, which the full decoder reports).
 * `headersKnown`: the reader already matched the frame against DELTA_HEADER_BLOCK's pattern, and read its places.
 */
export function readBlockDelta(text: string, headersLength: number, out: BlockDelta, headersKnown = false): boolean {
  if (!headersKnown) {
    if (headersLength !== HEADERS_LENGTH || text.length > PATTERN_MAX_CHARS || !DELTA_HEADER_BLOCK.heads(text)) return false;
    places.read(text, HEADERS_LENGTH);
  } // else the reader read the places for the frame's CRC
  const { valueStart: start, valueEnd: end } = places;
  out.index = places.index;
  out.text = places.isText;
  const backslash = text.indexOf('\\', start);
  const escaped = backslash >= 0 && backslash < end;
  if (!readStringLiteral(text, start, end, escaped, read)) return false;
  out.value = read.text;
  out.literal = read.literal;
  return true;
}

/**
 * End (after its closing quote) of the string literal at `start`, which the pattern matched:
 * its first quote not escaped, found with native searches (an escaped quote is rare).
 */
function literalEnd(text: string, start: number): number {
  let quote = text.indexOf('"', start + 1);
  while (text.charCodeAt(quote - 1) === BACKSLASH && escapedAt(text, start, quote)) quote = text.indexOf('"', quote + 1);
  return quote + 1;
}

/** The quote at `quote` follows an odd run of backslashes (inside the literal at `start`). */
function escapedAt(text: string, start: number, quote: number): boolean {
  let i = quote - 1;
  while (i > start && text.charCodeAt(i) === BACKSLASH) i--;
  return (quote - 1 - i) % 2 === 1;
}
